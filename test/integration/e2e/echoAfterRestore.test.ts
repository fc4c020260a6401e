import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { startDaemon } from '../../../src/app/daemon.js';
import { replayInboxMessage } from '../../../src/operations/replay.js';
import { syncOnce, type SyncReport } from '../../../src/app/syncOnce.js';
import { backupStore, restorePointOf } from '../../../src/housekeeping/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { CYCLE_START } from '../../support/appCycle.js';
import { eventually } from '../../support/eventually.js';
import { FakeClock } from '../../support/fakeClock.js';
import { api, startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const RESOURCES = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;
type Row = Record<string, unknown>;

let sim: TestSimulator | undefined;
let simClock: FakeClock;
let rig: AppRig;
let app: App | undefined;
type Line = { level: number; msg: string };
let lines: Line[];

beforeEach(async () => {
  simClock = new FakeClock(CYCLE_START);
  sim = await startTestSimulator({ variant: 'B', clock: simClock });
  rig = appRig(sim.url, 'B', CYCLE_START);
  app = await rig.open();
  lines = [];
});

afterEach(async () => {
  await app?.close();
  await sim?.close();
  rig.cleanup();
  app = sim = undefined;
});

const started = (): { sim: TestSimulator; app: App } => {
  if (sim === undefined || app === undefined) throw new Error('not started');
  return { sim, app };
};

/** A minute later on both clocks, one `sync --once` pass. */
async function pass(): Promise<SyncReport> {
  simClock.advance(60_000);
  rig.clock.advance(60_000);
  const report = await syncOnce(started().app, RESOURCES);
  expect(report.ok, JSON.stringify(report.pulls.filter((p) => !p.ok))).toBe(true);
  return report;
}

/** Stops the daemon, puts `backup` in place of its database as the runbook says, starts again. */
async function restore(backup: string): Promise<void> {
  await started().app.close();
  app = undefined;
  const database = join(rig.folder, 'sync.db');
  for (const suffix of ['-wal', '-shm']) rmSync(`${database}${suffix}`, { force: true });
  copyFileSync(backup, database);
  const logger = pino(
    { level: 'info' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Line) },
  );
  app = await rig.open(logger);
}

/** The platform writes the simulator was asked for since `clearRequests`. */
const platformWrites = async () =>
  (await started().sim.control.requests()).filter((r) => r.method !== 'GET');

/** A single order of the seed, still created, for the demo tenant. */
async function createdOrder(): Promise<string> {
  const list = '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z';
  const order = ((await api(started().sim, 'GET', list, { key: 'demo-key-2' })).json as Row[])[0];
  if (!order) throw new Error('the seed has no created single order');
  return String(order._id);
}

const orderFiles = (id: string) => rig.outboxFiles('singleOrder').filter((f) => f.startsWith(id));

describe('a database restored from a backup, and the status the ERP reported after it', () => {
  it("does not hand the ERP its own status back; a platform user's change after it still goes", async () => {
    const id = await createdOrder();
    await pass();
    await pass();
    expect(orderFiles(id)).toHaveLength(1);
    const backup = join(rig.folder, 'backup.db');
    await backupStore(started().app.store, backup);

    rig.drop('orderStatus', 'order-1.json', {
      orderType: 'single',
      id,
      status: 3,
      salesId: 'AU-9',
    });
    await pass();
    await pass();
    expect(await started().sim.control.getRecord('singleOrder', id)).toMatchObject({
      status: 3,
      salesId: 'AU-9',
    });
    expect(orderFiles(id)).toHaveLength(1);

    await restore(backup);
    for (let round = 0; round < 4; round++) await pass();
    expect(orderFiles(id)).toHaveLength(1);

    await started().sim.control.patchRecord('singleOrder', id, { deliveryDate: '2026-03-09' });
    await pass();
    expect(orderFiles(id)).toHaveLength(2);
  });

  it("hands over once a platform user's change made after the backup, and writes nothing to the platform", async () => {
    const id = await createdOrder();
    await pass();
    await pass();
    const backup = join(rig.folder, 'backup.db');
    await backupStore(started().app.store, backup);
    const status = { orderType: 'single', id, status: 3, salesId: 'AU-9' };
    rig.drop('orderStatus', 'order-1.json', status);
    await pass();
    await pass();
    // Changed on the platform after the last pull before the restore: the ERP does not have it.
    await started().sim.control.patchRecord('singleOrder', id, { deliveryDate: '2026-03-09' });

    await started().sim.control.clearRequests();
    await restore(backup);
    for (let round = 0; round < 3; round++) await pass();
    expect(orderFiles(id)).toHaveLength(2);
    const handed = JSON.parse(
      readFileSync(join(rig.outbox, 'singleOrder', orderFiles(id)[1] ?? ''), 'utf8'),
    ) as Row;
    expect(handed).toMatchObject({ deliveryDate: '2026-03-09', status: 3 });

    // The message is known as handled: the same file again is a repeat, not a second PATCH;
    // `inbox replay` may send it again, and finds the order carrying it already.
    rig.drop('orderStatus', 'order-1.json', status);
    expect((await pass()).inbox?.counts).toMatchObject({ accepted: 0, repeat: 1 });
    const { store, config } = started().app;
    const operator = { osUser: 'tester', host: 'test-host' };
    const replayed = await replayInboxMessage(store, config, 'order-1.json', {
      cwd: rig.folder,
      operator,
    });
    expect(replayed).toMatchObject({ ok: true });
    expect((await pass()).queue.waiting).toBe(0);
    expect(await platformWrites()).toEqual([]);
    expect(orderFiles(id)).toHaveLength(2);
  });

  it('says once what it re-derived, and only on the first start of the restored database', async () => {
    const id = await createdOrder();
    await pass();
    const backup = join(rig.folder, 'backup.db');
    await backupStore(started().app.store, backup);
    rig.drop('orderStatus', 'order-1.json', { orderType: 'single', id, status: 3 });
    await pass();

    await restore(backup);
    await pass();
    await pass();
    const said = lines.filter((line) => line.msg.startsWith('database restored from a backup'));
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ level: 30, messages: 1, ownWrites: 1 });
    expect(restorePointOf(started().app.store)).toBeUndefined();
  });
});

describe('the daemon on a database restored from a backup', () => {
  it('re-derives before its first pull: the ERP does not get its own status back', async () => {
    const id = await createdOrder();
    await pass();
    await pass();
    const backup = join(rig.folder, 'backup.db');
    await backupStore(started().app.store, backup);
    rig.drop('orderStatus', 'order-1.json', { orderType: 'single', id, status: 3 });
    await pass();
    await pass();

    await restore(backup);
    const { store } = started().app;
    const versions = () =>
      store.db.prepare('SELECT count(*) FROM ledger WHERE _id = ?').pluck().get(id) as number;
    const before = versions();
    const deliveries = () =>
      store.db
        .prepare("SELECT count(*) FROM queue WHERE kind = 'deliver.singleOrder' AND entity_key = ?")
        .pluck()
        .get(`singleOrder:${id}`);
    const delivered = deliveries();
    simClock.advance(60_000);
    rig.clock.advance(60_000);
    const daemon = await startDaemon(started().app, { quiet: true });
    try {
      await eventually('the first pull to store the order as the ERP set it', () =>
        versions() > before ? true : undefined,
      );
    } finally {
      await daemon.stop();
    }
    // A version handed over would have queued its delivery.
    expect(deliveries()).toBe(delivered);
    expect(orderFiles(id)).toHaveLength(1);
  });
});

describe('a database restored from a backup, and a patient the ERP created after it', () => {
  it('does not hand the ERP its own patient back', async () => {
    await pass();
    const backup = join(rig.folder, 'backup.db');
    await backupStore(started().app.store, backup);
    rig.drop('patient', 'patient-1.json', {
      customerId: 'K-77001',
      firstName: 'Hans',
      lastName: 'Meier',
      birthday: '1938-11-23',
      address: 'Poppelsdorfer Allee 88',
      postalCode: '53115',
      city: 'Bonn',
    });
    for (let round = 0; round < 4; round++) await pass();
    const made = (await api(started().sim, 'GET', '/patient')).json as Row[];
    const patient = made.find((p) => p.customerId === 'K-77001');
    if (patient === undefined) throw new Error('the patient was not created');
    const patientFiles = () =>
      rig.outboxFiles('patient').filter((f) => f.startsWith(String(patient._id)));
    expect(patientFiles()).toEqual([]);

    await restore(backup);
    for (let round = 0; round < 4; round++) await pass();
    expect(patientFiles()).toEqual([]);
  });
});
