import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  claimJobs,
  insertJob,
  newBatch,
  readyJobs,
  releaseJobs,
  type Store,
} from '../../../src/store/index.js';
import { queryPlansOf } from '../../support/queryPlans.js';
import { databaseAtVersion, tempStores, type TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
beforeEach(() => {
  temp = tempStores();
});
afterEach(() => temp.cleanup());

const DELIVERIES = { prefix: 'deliver.', inside: true };

let serial = 0;

/** A job for article `entity`; ids grow in the order jobs are queued. */
function queued(store: Store, entity: string, kind = 'deliver.article'): number {
  serial += 1;
  return insertJob(store, {
    kind,
    entityKey: `article:${entity}`,
    payload: { resource: 'article', id: entity, version: 'v1' },
    idempotencyKey: `${kind}:${entity}:${serial}`,
    supersedes: false,
  }).id;
}

const ready = (store: Store, limit: number) =>
  readyJobs(store, temp.clock.now().toISOString(), DELIVERIES, limit);

/** Jobs handed over together in a batch, then given back by a stop: pending, in the batch. */
function leftInBatch(store: Store, ids: number[]): number {
  const batch = newBatch(store, 'deliver.article');
  claimJobs(store, ids, temp.clock.now().toISOString(), batch);
  releaseJobs(store, ids);
  return batch;
}

describe('readyJobs', () => {
  it('gives the oldest ready jobs up to the limit, passing over those not ready', () => {
    const store = temp.open();
    const a = queued(store, 'a');
    queued(store, 'a'); // behind the one before it
    queued(store, 'b', 'ack.singleOrder'); // another channel's kind
    const c = queued(store, 'c');
    const d = queued(store, 'd');
    queued(store, 'e');

    expect(ready(store, 3).map((job) => job.id)).toEqual([a, c, d]);
  });

  it('gives a batch left unfinished whole, with its jobs past the limit', () => {
    const store = temp.open();
    const ids = ['1', '2', '3', '4', '5', '6'].map((entity) => queued(store, entity));
    const [j1, j2, j3, , j5, j6] = ids as [number, number, number, number, number, number];
    const batch = leftInBatch(store, [j2, j5, j6]);

    const found = ready(store, 3);
    expect(found.map((job) => job.id)).toEqual([j1, j2, j3, j5, j6]);
    expect(found.filter((job) => job.batch === batch).map((job) => job.id)).toEqual([j2, j5, j6]);
    expect(ready(store, 10).map((job) => job.id)).toEqual(ids);
  });

  it('reads pending jobs in queue order and stops, never reading the whole backlog or history', () => {
    const store = temp.open();
    const [first, second] = [queued(store, 'x'), queued(store, 'y')];
    leftInBatch(store, [first, second]);
    const plans = queryPlansOf(store, () => expect(ready(store, 1)).toHaveLength(2));

    expect(plans).toHaveLength(2);
    for (const plan of plans) {
      expect(plan).toMatch(/(SCAN|SEARCH) job USING (COVERING )?INDEX queue_state/);
      expect(plan).not.toMatch(/TEMP B-TREE/);
      // Whether an older job of the entity is open: its open jobs only, not its done ones.
      expect(plan).toMatch(
        /SEARCH earlier USING (COVERING )?INDEX queue_open \(entity_key=\? AND id<\?\)/,
      );
    }
  });

  it('works on a database made before pending jobs had their index', () => {
    const db = databaseAtVersion(join(temp.folder, 'homecare-sync.db'), 6);
    db.close();
    const store = temp.open();
    const id = queued(store, 'old');

    expect(ready(store, 5).map((job) => job.id)).toEqual([id]);
  });
});

describe('the queue at the size it grows to', () => {
  it('claims jobs by their ids, not by reading every pending job', () => {
    const store = temp.open();
    const id = queued(store, 'claimed');
    const plans = queryPlansOf(store, () =>
      claimJobs(store, [id], temp.clock.now().toISOString(), undefined),
    );

    expect(plans).toEqual([expect.stringMatching(/^SEARCH queue USING INTEGER PRIMARY KEY/)]);
  });

  it("replaces a record's older jobs through its open jobs, not every job it had", () => {
    const store = temp.open();
    const job = { kind: 'article', entityKey: 'article:a-1', payload: { id: 'a-1' } };
    const older = insertJob(store, { ...job, supersedes: false }).id;
    const plans = queryPlansOf(store, () => {
      expect(insertJob(store, { ...job, supersedes: true }).superseded).toEqual([older]);
    });

    expect(plans).toEqual([expect.stringMatching(/^SEARCH queue USING INDEX queue_open/)]);
  });
});
