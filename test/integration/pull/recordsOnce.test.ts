import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractFor } from '../../../src/contract/index.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import {
  getLedgerEntry,
  getMirror,
  listStoredJobs,
  sha256Of,
  type StoredJob,
} from '../../../src/store/index.js';
import { deliveryHandlers } from '../../../src/deliver/deliver.js';
import { isBatchHandler, type Job } from '../../../src/queue/types.js';
import { startPullRig, SIM_START, type PullRig } from '../../support/daemon.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';
import { tempFolder } from '../../support/erp/fileDropSupport.js';

const MINUTE = 60_000;

/**
 * Each pulled record's text is stored once: the mirror holds the latest version's, the ledger
 * a version's hash, and its text only while a delivery of it may run and the mirror moved on.
 */
describe('a pulled record stored once', () => {
  let sim: TestSimulator;
  let simClock: FakeClock;
  let rig: PullRig;
  let outbox: { dir: string; cleanup: () => Promise<void> };

  beforeEach(async () => {
    simClock = new FakeClock(SIM_START);
    sim = await startTestSimulator({ variant: 'B', clock: simClock, seed: 3 });
    rig = startPullRig(sim.url, 'B');
    outbox = await tempFolder();
  });
  afterEach(async () => {
    await rig.close();
    await sim.close();
    await outbox.cleanup();
  });

  const elapse = (ms: number) => {
    simClock.advance(ms);
    rig.clock.advance(ms);
  };

  const deliveriesOf = (id: string): StoredJob[] =>
    listStoredJobs(rig.store, ['pending'], -1, 'deliver.doctor').filter(
      (job) => job.entityKey === `doctor:${id}`,
    );

  async function deliver(jobs: readonly StoredJob[]): Promise<void> {
    const adapter = await createFileAdapter(
      { ...DEFAULT_FILE_ADAPTER_OPTIONS, outbox: outbox.dir },
      { clock: rig.clock },
    );
    const logger = pino({ enabled: false });
    const contract = contractFor('B');
    const handler = deliveryHandlers({
      store: rig.store,
      adapter,
      contract,
      logger,
      fetchReferences: () => Promise.resolve(new Map()),
      filesOf: () => Promise.resolve(undefined),
      batchSize: 10,
    })['deliver.doctor'];
    if (handler === undefined || !isBatchHandler(handler)) throw new Error('no batch handler');
    const context = { client: rig.client, store: rig.store, contract, clock: rig.clock, logger };
    const results = await handler.run(jobs as readonly Job[], 1, context);
    for (const result of results) {
      if (!result.ok) throw result.error;
      result.complete?.();
    }
  }

  const delivered = async (id: string, version: string): Promise<unknown> => {
    const name = `${id}_${version.replaceAll(':', '-')}.json`;
    return JSON.parse(await readFile(join(outbox.dir, 'doctor', name), 'utf8'));
  };

  it('hands a version over as pulled after a newer one replaced it in the mirror', async () => {
    await rig.runner.runResource('doctor');
    const [first] = listStoredJobs(rig.store, ['pending'], 1, 'deliver.doctor');
    if (first === undefined) throw new Error('the seed has no doctor');
    const id = String(first.payload['id']);
    const older = String(first.payload['version']);
    const pulled = getMirror(rig.store, 'doctor', id)?.record;
    expect(getLedgerEntry(rig.store, 'doctor', id, older)).toMatchObject({
      json: undefined,
      sha256: sha256Of(JSON.stringify(pulled)),
    });

    elapse(MINUTE);
    await sim.control.patchRecord('doctor', id, { lastName: 'Neumann-Okafor' });
    elapse(MINUTE);
    await rig.runner.runResource('doctor');

    const newer = getMirror(rig.store, 'doctor', id);
    expect(newer?.version).toEqual(expect.any(String));
    expect(newer?.version).not.toBe(older);
    expect(newer?.record['lastName']).toBe('Neumann-Okafor');
    expect(getLedgerEntry(rig.store, 'doctor', id, older)?.json).toBe(JSON.stringify(pulled));
    expect(getLedgerEntry(rig.store, 'doctor', id, newer?.version ?? '')?.json).toBeUndefined();

    const jobs = deliveriesOf(id);
    expect(jobs.map((job) => job.payload['version'])).toEqual([older, newer?.version]);
    await deliver(jobs);
    expect(await delivered(id, older)).toEqual(pulled);
    expect(await delivered(id, newer?.version ?? '')).toEqual(newer?.record);
    // Delivered and superseded: no delivery needs the older text any more; its hash stays.
    expect(getLedgerEntry(rig.store, 'doctor', id, older)).toMatchObject({
      sha256: sha256Of(JSON.stringify(pulled)),
    });
  });

  it('takes one copy of each record on disk, not two', async () => {
    await sim.close();
    sim = await startTestSimulator({ clock: simClock, seed: 3, sizes: { singleOrders: 1500 } });
    await rig.close();
    rig = startPullRig(sim.url, 'B');
    const pulls = (await rig.runner.runResource('singleOrder')) ?? [];
    expect(pulls.length).toBeGreaterThan(0);
    expect(pulls.every((pull) => pull.ok)).toBe(true);
    const { db } = rig.store;
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pragma = (name: string) => Number(db.pragma(name, { simple: true }));
    const used = (pragma('page_count') - pragma('freelist_count')) * pragma('page_size');
    const { records, text } = db
      .prepare('SELECT count(*) AS records, sum(length(json)) AS text FROM mirror')
      .get() as { records: number; text: number };
    expect(records).toBeGreaterThanOrEqual(1000);
    // Two copies (ledger and mirror) took 3.4 times the text; one copy with its rows, 2.0.
    expect(used / text).toBeLessThan(2.5);
  });
});
