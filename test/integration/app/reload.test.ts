import { readdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app/app.js';
import { startReloadableDaemon, type ReloadableDaemon } from '../../../src/app/reload.js';
import { loadConfig, type LoadedConfig } from '../../../src/config/index.js';
import { lastSuccessfulPulls, takeLock } from '../../../src/store/index.js';
import { eventually } from '../../support/cli/daemonProcess.js';
import { writeAppConfig } from '../../support/appConfig.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { api, startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';
/**
 * The daemon's loops on the rig's fake clock (a test moves it for a scan of the inbox); patients
 * pulled only by a daemon's first pass (their schedule is once a year), so a test knows which
 * daemon pulled one.
 */
const EXTRA = {
  queue: { concurrency: 2, pollIntervalMs: 50 },
  sync: { resources: { patient: { schedule: '0 0 1 1 *' } } },
};
const FILE = { scanIntervalMs: 100 };
const TOKEN = 'f0e1d2c3b4a5968778695a4b3c2d1e0f';

type Line = Record<string, unknown> & { msg: string; level: number };

let sim: TestSimulator;
let rig: AppRig;
let daemon: ReloadableDaemon | undefined;
let lines: Line[];

beforeEach(async () => {
  sim = await startTestSimulator({ variant: 'B', clock: new FakeClock(START) });
  rig = appRig(sim.url, 'B', START, EXTRA, FILE);
  lines = [];
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Line) },
  );
  // As `run` reads and builds it, on the rig's fake clock.
  const source = {
    load: () => loadConfig({ path: rig.configPath, env: {}, cwd: rig.folder }),
    build: ({ config }: LoadedConfig) => createApp(config, { clock: rig.clock, env: {}, logger }),
  };
  daemon = await startReloadableDaemon(await source.build(source.load()), source);
});
afterEach(async () => {
  await daemon?.stop();
  await sim.close();
  rig.cleanup();
});

const logged = (msg: string) => lines.filter((line) => line.msg === msg);
const loggedStarting = (start: string) => lines.filter((line) => line.msg.startsWith(start));

/** The config file rewritten with `extra` and `file` over the rig's. */
function rewriteConfig(extra: Record<string, unknown>, file: Record<string, unknown> = {}): void {
  writeAppConfig(rig.folder, sim.url, 'B', { ...EXTRA, ...extra }, {}, { ...FILE, ...file });
}

/** The seed's first single order waiting for its acknowledgement. */
async function createdOrder(): Promise<string> {
  const answer = await api(
    sim,
    'GET',
    '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
  );
  const [order] = answer.json as { _id: string }[];
  if (order === undefined) throw new Error('the seed has no created order');
  return order._id;
}

/** Whether every resource had its pull: the first pass is over. */
function firstPassDone(running: ReloadableDaemon): true | undefined {
  const resources = running.app.runner.resources();
  const pulled = lastSuccessfulPulls(running.app.store, resources);
  return resources.every((resource) => pulled[resource] !== undefined) ? true : undefined;
}

const statusOf = async (id: string) => (await sim.control.getRecord('singleOrder', id))['status'];

// The first passes and the writes they queue run at once; generous bounds for a busy CI.
describe('reload (SIGHUP)', { timeout: 120_000 }, () => {
  it('a refused reload logs every problem once and changes nothing: the running config goes on working', async () => {
    const running = daemon;
    if (running === undefined) throw new Error('no daemon');
    const order = await createdOrder();
    await eventually('the first pass to acknowledge the order', async () =>
      (await statusOf(order)) === 1 ? true : undefined,
    );
    const before = running.app;

    rewriteConfig({ sync: { resources: { patient: { schedule: '*/61 * * * *' } } }, bogus: 1 });
    const outcome = await running.reload();

    expect(outcome.applied).toBe(false);
    const problems = outcome.applied ? [] : outcome.problems;
    expect(problems.some((p) => p.startsWith('sync.resources.patient.schedule'))).toBe(true);
    expect(problems.some((p) => p.startsWith('bogus'))).toBe(true);
    const refused = loggedStarting('config reload refused, the running config stays: ');
    expect(refused).toHaveLength(1);
    expect(refused[0]?.level).toBe(50);
    expect(refused[0]?.['problems']).toEqual(problems);
    expect(refused[0]?.msg).toContain(problems.join('; '));
    expect(running.app).toBe(before);
    expect(logged('config reloaded')).toEqual([]);

    // The running daemon still reads the inbox and writes to the platform.
    rig.drop('orderStatus', 'answer.json', { orderType: 'single', id: order, status: 3 });
    await rig.clock.elapse(FILE.scanIntervalMs);
    await eventually('the answer to reach the platform', async () =>
      (await statusOf(order)) === 3 ? true : undefined,
    );
  });

  it('an accepted reload applies the new config in the same process and says so once', async () => {
    const running = daemon;
    if (running === undefined) throw new Error('no daemon');
    await eventually('the first pass to pull every resource', () => firstPassDone(running));
    const before = running.app;
    const handedBefore = rig.outboxFiles('patient');
    const created = await sim.control.createRecord('patient', { lastName: 'Reloaded' });
    const id = String(created['_id']);
    const outbox = join(rig.folder, 'erp', 'outbox-2');

    rewriteConfig({}, { outbox });
    expect(await running.reload()).toEqual({ applied: true });

    expect(running.app).not.toBe(before);
    expect(running.app.config.erp.file.outbox).toBe(outbox);
    expect(logged('config reloaded')).toHaveLength(1);
    expect(logged('homecare-sync started')).toHaveLength(1);
    expect(logged('homecare-sync stopped')).toEqual([]);
    // The new daemon's first pass hands the new patient to the new outbox, not the old one.
    await eventually('the new patient in the new outbox', () =>
      rig.outboxFiles('patient').length === handedBefore.length &&
      readdirOr(join(outbox, 'patient')).some((name) => name.startsWith(id))
        ? true
        : undefined,
    );
    expect(rig.outboxFiles('patient')).toEqual(handedBefore);
  });

  it('a new config whose daemon cannot start is refused, and the running config starts again', async () => {
    const running = daemon;
    if (running === undefined) throw new Error('no daemon');
    const order = await createdOrder();
    await eventually('the first pass to acknowledge the order', async () =>
      (await statusOf(order)) === 1 ? true : undefined,
    );
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      rewriteConfig({ http: { enabled: true, host: '127.0.0.1', port, token: TOKEN } });
      const outcome = await running.reload();
      expect(outcome.applied).toBe(false);
      expect(outcome.applied ? [] : outcome.problems).toEqual([
        expect.stringMatching(
          new RegExp(`^http\\.port: port ${port} on 127\\.0\\.0\\.1 is in use`),
        ),
      ]);
    } finally {
      taken.close();
    }
    expect(running.app.config.http.enabled).toBe(false);
    rig.drop('orderStatus', 'answer.json', { orderType: 'single', id: order, status: 3 });
    await rig.clock.elapse(FILE.scanIntervalMs);
    await eventually('the answer to reach the platform', async () =>
      (await statusOf(order)) === 3 ? true : undefined,
    );
  });

  it('refuses another database, and releases the kept lock when it stops', async () => {
    const running = daemon;
    if (running === undefined) throw new Error('no daemon');
    rewriteConfig({ storage: { path: join(rig.folder, 'other.db') } });
    const outcome = await running.reload();
    expect(outcome.applied).toBe(false);
    expect(outcome.applied ? [] : outcome.problems).toEqual([
      expect.stringMatching(/^storage\.path: .*sync\.db is the database this process holds/),
    ]);

    const database = running.app.store.path;
    expect('refused' in takeLock(database, { pid: 1, host: 'test', since: START })).toBe(true);
    await running.stop();
    daemon = undefined;
    const attempt = takeLock(database, { pid: 1, host: 'test', since: START });
    expect('held' in attempt).toBe(true);
    if ('held' in attempt) attempt.held.release();
    expect(logged('homecare-sync stopped')).toHaveLength(1);
  });
});

function readdirOr(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
