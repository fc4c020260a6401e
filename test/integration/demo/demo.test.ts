import { writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.js';
import { createLogger } from '../../../src/log/index.js';
import { startDemo, type RunningDemo } from '../../../src/demo/index.js';
import { systemClock, type Clock } from '../../../src/shared/clock.js';
import { eventually, quietFor } from '../../support/eventually.js';
import { FakeClock } from '../../support/fakeClock.js';
import { SimControl } from '../../support/simulator.js';
import { demoConfigIn, filesUnder } from '../../support/demo/demoRig.js';

type Rig = ReturnType<typeof demoConfigIn>;

type Line = Record<string, unknown>;

/** The daemon's log lines at the demo config's level (info), kept in `logged`. */
const keptIn = (logged: Line[]) =>
  createLogger({
    level: 'info',
    destination: { write: (line: string) => void logged.push(JSON.parse(line) as Line) },
  });

const ERP_INTERVAL_MS = 100;
const ACTIVITY_INTERVAL_MS = 300;

async function start(
  rig: Rig,
  said: string[],
  variant?: 'A' | 'B' | 'C',
  logged?: Line[],
  clock: Clock = systemClock,
): Promise<RunningDemo> {
  const { config } = loadConfig({ path: rig.configPath, env: {}, cwd: rig.folder });
  return startDemo({
    config,
    source: rig.configPath,
    cwd: rig.folder,
    clock,
    env: {},
    logger: logged === undefined ? pino({ enabled: false }) : keptIn(logged),
    say: (line) => said.push(line),
    port: 0,
    erpIntervalMs: ERP_INTERVAL_MS,
    activityIntervalMs: ACTIVITY_INTERVAL_MS,
    ...(variant ? { variant } : {}),
  });
}

describe.each(['B', 'A'] as const)('the demo in variant %s', (variant) => {
  let rig: Rig | undefined;
  let demo: RunningDemo | undefined;
  let stopDriving: () => void = () => undefined;
  afterEach(async () => {
    stopDriving();
    await demo?.stop();
    rig?.cleanup();
  });

  it(
    'takes an order the platform user placed through the whole cycle without a warning, then stops and stays still',
    { timeout: 120_000 },
    async () => {
      rig = demoConfigIn();
      const said: string[] = [];
      const logged: Line[] = [];
      // The demo's loops (stand-ins, inbox scans, queue) wait on its clock: here a fake one,
      // moved ten times as fast as real time while the test waits for the cycle. Its schedules
      // are node-cron's, on real time (every second or two in the rig's config).
      const clock = new FakeClock(new Date());
      const drive = setInterval(() => clock.advance(ERP_INTERVAL_MS), ERP_INTERVAL_MS / 10);
      stopDriving = () => clearInterval(drive);
      demo = await start(rig, said, variant, logged, clock);
      const running = demo;
      // The first-contact check ran against the demo's own simulator and folders: all well.
      expect(said).toContain('first contact (homecare-sync check --online):');
      expect(said).toContainEqual(
        expect.stringMatching(/^ {2}\d+ pass, 0 warn, 0 fail, \d+ skip$/),
      );
      expect(said).toContainEqual(
        expect.stringContaining(
          `the platform behaves as variant ${variant}, as platform.variant says`,
        ),
      );
      const control = new SimControl(running.simulator.url, running.simulator.controlToken);
      const ours = () => {
        const placed = new Set(running.activity.created().map((order) => order.id));
        return running.erp.orders().filter((order) => placed.has(order.id));
      };

      await eventually(
        () => `a placed order answered in full; so far:\n${said.join('\n')}`,
        () => ours().some((order) => order.answered === order.answers),
      );
      const order = ours().find((o) => o.answered === o.answers);
      if (!order) throw new Error('unreachable');
      await eventually(
        () => `order ${order.id} Delivered on the platform`,
        async () => (await control.getRecord(order.resource, order.id))['status'] === 5,
      );
      const onPlatform = await control.getRecord(order.resource, order.id);
      expect(onPlatform).toMatchObject({ status: 5, salesId: order.salesId });
      expect(onPlatform['trackingInfo']).toHaveLength(1);
      const erpOrders = () =>
        running.simulator.state.store.findBy('demo', 'erpOrder', 'salesId', order.salesId);
      // The ERP order with its tracking is a job of its own beside the status: it may come after.
      await eventually(
        () => `the ERP order of ${order.salesId} on the platform`,
        () => erpOrders().length > 0,
      );
      expect(erpOrders()).toHaveLength(1);

      const { outbox, inbox } = running.config.erp.file;
      const outboxFiles = filesUnder(join(outbox, order.resource));
      expect(
        outboxFiles.filter((name) => name.startsWith(`${order.id}_`)).length,
      ).toBeGreaterThanOrEqual(1);
      const archived = () =>
        filesUnder(join(inbox, '.archive')).map((path) => {
          const [kind, , name] = path.split('/');
          return `${kind}/${name}`;
        });
      expect(order.files).toHaveLength(4);
      // A message is stored (and its job may run) before its file moves to the archive.
      await eventually(
        () => `the order's inbox files archived; archived so far: ${archived().join(', ')}`,
        () => order.files.every((file) => archived().includes(file)),
      );
      for (const file of order.files) expect(archived()).toContain(file);
      expect(filesUnder(join(inbox, '.error'))).toEqual([]);

      await running.stop();
      demo = undefined;
      stopDriving();
      // A fresh start has nothing to warn about: no order waits for what it refers to.
      const troubles = logged.filter((line) =>
        ['warn', 'error', 'fatal'].includes(String(line['level'])),
      );
      expect(troubles).toEqual([]);
      expect(logged.some((line) => line['msg'] === 'pull finished')).toBe(true);
      const quiet = () => ({
        placed: running.activity.created().length,
        answered: running.erp.orders().map((o) => o.answered),
        outbox: filesUnder(outbox),
        inbox: filesUnder(inbox),
      });
      const atStop = quiet();
      const late = { ...onPlatform, _id: 'placed-after-stop', status: 0 };
      writeFileSync(join(outbox, order.resource, 'placed-after-stop_1.json'), JSON.stringify(late));
      atStop.outbox = filesUnder(outbox);
      const saidAtStop = said.length;
      // No loop waits on the clock any more, and ten of the longest interval of it move none.
      const now = () => ({ ...quiet(), said: said.slice(saidAtStop) });
      expect(clock.sleeping()).toBe(0);
      clock.advance(10 * ACTIVITY_INTERVAL_MS);
      await new Promise((resolve) => setImmediate(resolve));
      expect(now()).toEqual({ ...atStop, said: [] });
      // Real time for the schedules alone (node-cron reads the real clock): past the longest.
      await quietFor(
        2_200,
        () => `the demo still after its stop; now ${JSON.stringify(now())}`,
        () => isDeepStrictEqual(now(), { ...atStop, said: [] }),
      );
    },
  );
});

describe('starting the demo', () => {
  let rig: Rig | undefined;
  let demo: RunningDemo | undefined;
  afterEach(async () => {
    await demo?.stop();
    rig?.cleanup();
  });

  it('starts from empty folders, removing what an earlier demo left', async () => {
    rig = demoConfigIn();
    const said: string[] = [];
    demo = await start(rig, said);
    const first = demo;
    await eventually(
      () => 'a first order in the outbox',
      () => filesUnder(first.config.erp.file.outbox).length > 0,
    );
    await first.stop();
    const left = filesUnder(first.config.erp.file.outbox);
    expect(first.config.erp.file.outbox.startsWith(rig.folder)).toBe(true);

    demo = await start(rig, said);
    expect(demo.cleared.length).toBeGreaterThan(0);
    const now = new Set(filesUnder(demo.config.erp.file.outbox));
    expect(left.filter((file) => now.has(file))).toEqual([]);
  });

  it('refuses a config that is not a local demo, naming every field', async () => {
    rig = demoConfigIn((tree) => {
      tree['platform'] = { ...tree['platform'], baseUrl: 'https://platform.example/api' };
      tree['erp'] = {
        ...tree['erp'],
        file: { ...(tree['erp']?.['file'] as object), format: 'csv' },
      };
    });
    await expect(start(rig, [])).rejects.toMatchObject({
      problems: [
        expect.stringContaining('platform.baseUrl'),
        expect.stringContaining('erp.file.format'),
      ],
    });
  });

  it('refuses to clear folders that hold the working folder', async () => {
    rig = demoConfigIn((tree) => {
      tree['erp'] = { ...tree['erp'], file: { ...(tree['erp']?.['file'] as object), outbox: '.' } };
    });
    await expect(start(rig, [])).rejects.toMatchObject({
      problems: [expect.stringContaining('erp.file.outbox')],
    });
  });

  it.each(['simulator', 'endpoint'] as const)(
    'says which port is taken when the %s port is, and leaves nothing running',
    async (which) => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const port = (taken.address() as AddressInfo).port;
      try {
        rig = demoConfigIn((tree) => {
          if (which === 'endpoint') tree['http'] = { ...tree['http'], port };
        });
        const { config } = loadConfig({ path: rig.configPath, env: {}, cwd: rig.folder });
        const attempt = startDemo({
          config,
          source: rig.configPath,
          cwd: rig.folder,
          clock: systemClock,
          env: {},
          logger: pino({ enabled: false }),
          say: () => undefined,
          port: which === 'simulator' ? port : 0,
        });
        const field = which === 'simulator' ? '--port' : 'http.port';
        await expect(attempt).rejects.toMatchObject({
          message: `127.0.0.1:${port} is in use`,
          problems: [expect.stringContaining(field)],
        });
        // Nothing was cleared or created: the daemon never started.
        expect(filesUnder(rig.folder)).toEqual(['demo.yaml']);
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    },
  );
});
