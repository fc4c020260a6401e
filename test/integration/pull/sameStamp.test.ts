import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { contractFor, sameStampVersion } from '../../../src/contract/index.js';
import {
  createFileAdapter,
  DEFAULT_FILE_ADAPTER_OPTIONS,
} from '../../../src/erp/outbound/file/index.js';
import { isBatchHandler, type Job } from '../../../src/queue/types.js';
import { getMirror, listStoredJobs, sha256Of, type StoredJob } from '../../../src/store/index.js';
import { deliveryHandlers } from '../../../src/deliver/deliver.js';
import { sqlitePullStore } from '../../../src/pull/pullStore.js';
import { tempFolder } from '../../support/erp/fileDropSupport.js';
import { startPullRig, SIM_START, type PullRig } from '../../support/daemon.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const MINUTE = 60_000;

/**
 * #23.4: a platform that changes a record without moving its stamp (or twice within its clock's
 * resolution). The ledger knew a version by id and stamp, so the second content was a repeat
 * and never reached the ERP. Now the content's hash is part of the version: the second content
 * is the version `<stamp>_<hash8>`, its own file in the outbox.
 */
describe('two contents under one stamp', () => {
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

  const doctorJobs = (): StoredJob[] =>
    listStoredJobs(rig.store, ['pending'], -1, 'deliver.doctor');
  /** The hand-overs queued for one doctor, oldest first (the tests run no queue). */
  const jobsOf = (id: string): StoredJob[] =>
    doctorJobs().filter((job) => job.entityKey === `doctor:${id}`);
  const versionsOf = (id: string) => jobsOf(id).map((job) => job.payload['version']);

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
    for (const result of await handler.run(jobs as readonly Job[], 1, context)) {
      if (!result.ok) throw result.error;
      result.complete?.();
    }
  }

  /** A doctor a platform user changed just now (inside the next pull's overlap), pulled. */
  async function doctorChangedNow(): Promise<{ id: string; stamp: string }> {
    await rig.runner.runResource('doctor');
    const id = String(doctorJobs()[0]?.payload['id']);
    simClock.advance(MINUTE);
    rig.clock.advance(MINUTE);
    const changed = await sim.control.patchRecord('doctor', id, { title: 'Dr. med.' });
    simClock.advance(MINUTE);
    rig.clock.advance(MINUTE);
    await rig.runner.runResource('doctor');
    return { id, stamp: String(changed['timestamp']) };
  }

  /** A platform user's edit that leaves the record's stamp as it was. */
  async function editKeepingStamp(id: string, stamp: string, changes: Record<string, unknown>) {
    const now = simClock.now();
    simClock.set(stamp);
    const edited = await sim.control.patchRecord('doctor', id, changes);
    simClock.set(now);
    expect(edited['timestamp']).toBe(stamp);
    return edited;
  }

  it('hands the second content over as a version of its own, in a file of its own, once', async () => {
    const { id, stamp } = await doctorChangedNow();
    await deliver(jobsOf(id).slice(-1));
    const edited = await editKeepingStamp(id, stamp, { lastName: 'Neumann-Okafor' });

    simClock.advance(MINUTE);
    rig.clock.advance(MINUTE);
    await rig.runner.runResource('doctor');
    const version = sameStampVersion(stamp, sha256Of(JSON.stringify(edited)));
    expect(versionsOf(id).slice(1)).toEqual([stamp, version]);
    expect(getMirror(rig.store, 'doctor', id)).toMatchObject({ version, record: edited });

    await deliver(jobsOf(id).slice(1));
    const files = (await readdir(join(outbox.dir, 'doctor'))).filter((f) => f.startsWith(id));
    const hash8 = version.slice(-8);
    const first = `${id}_${stamp.replaceAll(':', '-')}.json`;
    const second = `${id}_${stamp.replaceAll(':', '-')}_${hash8}.json`;
    expect(files.sort()).toEqual([first, second].sort());
    const handed = JSON.parse(await readFile(join(outbox.dir, 'doctor', second), 'utf8')) as Record<
      string,
      unknown
    >;
    expect(handed).toMatchObject({ lastName: 'Neumann-Okafor' });

    // Pulled again, the second content is a repeat, and so is the first stamp's row.
    rig.clock.advance(MINUTE);
    const [summary] = (await rig.runner.runResource('doctor')) ?? [];
    expect(summary?.fresh).toBe(0);
    expect(versionsOf(id).slice(1)).toEqual([stamp, version]);
  });

  it('takes a third content under the stamp too, and the mirror keeps the latest', async () => {
    const { id, stamp } = await doctorChangedNow();
    const second = await editKeepingStamp(id, stamp, { lastName: 'Zweite' });
    rig.clock.advance(MINUTE);
    await rig.runner.runResource('doctor');
    const third = await editKeepingStamp(id, stamp, { lastName: 'Aaa-Dritte' });
    rig.clock.advance(MINUTE);
    await rig.runner.runResource('doctor');
    expect(versionsOf(id).slice(1)).toEqual([
      stamp,
      sameStampVersion(stamp, sha256Of(JSON.stringify(second))),
      sameStampVersion(stamp, sha256Of(JSON.stringify(third))),
    ]);
    expect(getMirror(rig.store, 'doctor', id)?.record['lastName']).toBe('Aaa-Dritte');
  });

  it('takes the same content in another key order for a repeat, not a new version', async () => {
    const { id, stamp } = await doctorChangedNow();
    const record = getMirror(rig.store, 'doctor', id)?.record;
    if (record === undefined) throw new Error('not mirrored');
    const reordered = Object.fromEntries(Object.entries(record).reverse());
    const json = JSON.stringify(reordered);
    expect(json).not.toBe(JSON.stringify(record));
    const pullStore = sqlitePullStore(rig.store, () => undefined);
    const target = { resource: 'doctor' as const, filter: '' };
    expect(pullStore.known(target, [{ id, version: stamp, json, sha256: sha256Of(json) }])).toEqual(
      [false],
    );
    const run = { target, mode: 'incremental' as const, startedAt: SIM_START };
    const counts = pullStore.commitBatch(
      run,
      [{ id, version: stamp, record: reordered, json }],
      [],
    );
    expect(counts).toMatchObject({ fresh: 0, repeats: 1 });
  });
});
