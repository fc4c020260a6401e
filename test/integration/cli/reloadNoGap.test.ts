import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import {
  eventually,
  killIfRunning,
  withinBound,
  type DaemonProcess,
} from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';
import { webhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';

const TOKEN = 'reload-token-3e8d0b5a91c4';

const rig = useDaemonRig({
  simulator: { seed: 11 },
  config: {
    // A slow list's body comes in pieces far apart: long enough a wait between them.
    http: { enabled: true, port: 0, token: TOKEN, readyCheckSeconds: 1 },
  },
});

let hook: WebhookReceiver;
beforeAll(async () => {
  hook = await webhookReceiver();
});
afterAll(() => hook.server.close());
// A test that failed leaves its daemon running, holding the database: the next starts its own.
afterEach(async () => {
  for (const daemon of rig().daemons) await killIfRunning(daemon);
  await rig().sim.control.clearFaults();
});

type Config = Record<string, Record<string, unknown>>;
let original: string;

/** The config file as the rig wrote it, changed by `change`, written back as an operator would. */
function editConfig(change: (config: Config) => void): void {
  const { f } = rig();
  original ??= readFileSync(f.configPath, 'utf8');
  const config = parse(original) as Config;
  change(config);
  writeFileSync(f.configPath, stringify(config), { mode: 0o600 });
}

const count = (daemon: DaemonProcess, msg: string) =>
  daemon.lines().filter((line) => line.msg === msg).length;

/** Starts the daemon on the config as it is; answers it and its endpoint's URL. */
async function started(): Promise<{ daemon: DaemonProcess; url: string }> {
  const daemon = rig().start();
  const line = await daemon.waitForLog('homecare-sync started');
  return { daemon, url: String(line['url']) };
}

async function stopped(daemon: DaemonProcess): Promise<void> {
  daemon.signal('SIGTERM');
  expect(await withinBound(daemon.exited, 'the daemon to stop')).toBe(0);
}

/** GETs `/healthz` every few milliseconds until `stop`; answers what did not come back 200. */
function keepAsking(url: string) {
  const failures: string[] = [];
  let asked = 0;
  let going = true;
  const loop = (async () => {
    while (going) {
      asked += 1;
      try {
        const answer = await fetch(`${url}/healthz`);
        await answer.text();
        if (answer.status !== 200) failures.push(`HTTP ${answer.status}`);
      } catch (error) {
        failures.push(String((error as Error).cause ?? error));
      }
      await sleep(10);
    }
  })();
  return {
    stop: async () => {
      going = false;
      await loop;
      return { failures, asked };
    },
  };
}

describe('reload without a gap (issue 37.4)', () => {
  it('answers throughout 30 SIGHUPs with a slow list running: they coalesce, and the list stops at a batch boundary', async () => {
    editConfig((config) => {
      config['platform'] = { ...config['platform'], timeoutMs: 60_000 };
    });
    const { sim } = rig();
    // The article list's body comes in ten pieces over ten minutes (the list only: an article
    // read alone, as a hand-over reads one the mirror lacks, answers at once).
    await sim.control.setFault({
      path: '/article',
      withQuery: 'updatedAfter',
      slowBodyMs: 600_000,
    });
    const { daemon, url } = await started();
    await eventually('the slow list to be under way', async () =>
      (await sim.control.requests()).some((request) => request.path === '/article'),
    );
    const asking = keepAsking(url);
    for (let n = 0; n < 30; n += 1) {
      daemon.signal('SIGHUP');
      await sleep(30);
    }
    await eventually('a reload', () => count(daemon, 'config reloaded') >= 1);
    const { failures, asked } = await asking.stop();
    expect(failures).toEqual([]);
    // Probes every few milliseconds from the first SIGHUP until the reload was done: a closed
    // port for longer than one probe's time would be among the failures.
    expect(asked).toBeGreaterThan(20);
    const stoppedList = daemon
      .lines()
      .find((line) => String(line.msg).startsWith('pull of article?status=created stopped'));
    expect(stoppedList?.level).toBe('info');
    await sim.control.clearFaults();
    // A stop waits for a reload still gathering: the count is final once the daemon stopped.
    await stopped(daemon);
    expect(count(daemon, 'config reloaded')).toBeGreaterThanOrEqual(1);
    expect(count(daemon, 'config reloaded')).toBeLessThanOrEqual(2);
  }, 60_000);

  it('alert states carry over: a firing state does not fire again, one that clears across a reload is resolved', async () => {
    editConfig((config) => {
      config['alerts'] = { webhook: { url: hook.url }, checkSeconds: 1 };
    });
    const { sim } = rig();
    const { daemon } = await started();
    const alerts = () =>
      hook.bodies
        .filter((body) => body['alert'] === 'platformUnreachable')
        .map((body) => body['state']);
    await sim.control.setFault({ path: '/region', errorStatus: 500 });
    await eventually('the alert', () => alerts().length === 1);
    daemon.signal('SIGHUP');
    await eventually('the reload', () => count(daemon, 'config reloaded') === 1);
    // Real time: the new daemon's alert checks (every second) do not fire it again.
    await sleep(3_000);
    expect(alerts()).toEqual(['firing']);
    // The old daemon's breaker keeps its region list paused: only the new one sees it back.
    await sim.control.clearFaults();
    daemon.signal('SIGHUP');
    await eventually('the second reload', () => count(daemon, 'config reloaded') === 2);
    await eventually('the resolved alert', () => alerts().length === 2);
    expect(alerts()).toEqual(['firing', 'resolved']);
    await stopped(daemon);
  }, 60_000);

  it('a refused reload closes everything it opened: no database handle or descriptor is left behind', async () => {
    const { f } = rig();
    editConfig(() => undefined);
    const { daemon } = await started();
    await eventually('the first pass', () =>
      daemon.lines().some((line) => String(line.msg).startsWith('readiness: ')),
    );
    // Settled: the first pass and the probes have opened what they keep.
    await sleep(1_000);
    const descriptors = () => readdirSync(`/proc/${daemon.pid}/fd`).length;
    const before = descriptors();
    const file = join(f.folder, 'not-a-folder');
    writeFileSync(file, 'a file where the outbox should be');
    editConfig((config) => {
      config['erp'] = {
        ...config['erp'],
        file: { ...(config['erp']?.['file'] as object), outbox: join(file, 'outbox') },
      };
    });
    for (let n = 1; n <= 13; n += 1) {
      daemon.signal('SIGHUP');
      await eventually(
        `refusal ${n}`,
        () =>
          daemon.lines().filter((line) => String(line.msg).startsWith('config reload refused'))
            .length === n,
      );
    }
    expect(descriptors() - before).toBeLessThanOrEqual(2);
    await stopped(daemon);
  }, 60_000);

  it('an outbox under /proc does not hang the reload: it is refused, and the endpoint answers on', async () => {
    editConfig(() => undefined);
    const { daemon, url } = await started();
    editConfig((config) => {
      config['erp'] = {
        ...config['erp'],
        file: { ...(config['erp']?.['file'] as object), outbox: '/proc/homecare-sync-outbox' },
      };
    });
    daemon.signal('SIGHUP');
    const refused = await eventually(
      'the refusal',
      () => daemon.lines().find((line) => String(line.msg).startsWith('config reload refused')),
      15_000,
    );
    expect(String(refused.msg)).toContain('/proc/homecare-sync-outbox');
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await stopped(daemon);
  }, 60_000);
});
