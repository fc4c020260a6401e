import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, isPlatformWrite } from '../../../src/queue/index.js';
import {
  addDeadLetter,
  claimJobs,
  markDead,
  pause,
  quarantine,
  recordRun,
  scheduleRetry,
  startRun,
  subjectOfEntity,
  upsertMirror,
  type Store,
} from '../../../src/store/index.js';
import { storyOf } from '../../../src/trace/index.js';
import { queryPlansOf, WHOLE_TABLE } from '../../support/queryPlans.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

let stores: TempStores;
let store: Store;
const NOW = '2026-03-01T08:00:00.000Z';

beforeEach(() => {
  stores = tempStores();
  stores.clock.set(NOW);
  store = stores.open();
  upsertMirror(store, 'singleOrder', { _id: 'o-1', salesId: 'SO-1' }, NOW);
});
afterEach(() => stores.cleanup());

const waiting = () =>
  storyOf(store, subjectOfEntity(store, 'singleOrder:o-1'), { pausable: isPlatformWrite }).waiting;

const job = (kind: string) =>
  enqueue(store, { kind, entityKey: 'singleOrder:o-1', payload: { id: 'o-1', status: 3 } }).id;

/** Claims the job and lets its try fail, the next one due `at`. */
function failed(id: number, at: string, error: string, theirs = false): void {
  claimJobs(store, [id], '2026-03-01T08:05:00.000Z', undefined);
  scheduleRetry(store, id, { attempts: 2, error, status: 503 }, { at, theirs });
}

describe('why a record has not moved', () => {
  it('says nothing when nothing holds it', () => {
    expect(waiting()).toEqual([]);
  });

  it('a job due now, one behind it, one waiting out a back-off, a dead letter', () => {
    const ack = job('ack.singleOrder');
    const status = job('orderStatus');
    expect(waiting()).toEqual([
      `job ${ack} ack.singleOrder is due: it runs at the next queue pass`,
      `job ${status} orderStatus waits for job ${ack} ack.singleOrder: the jobs of one record run in order`,
    ]);

    failed(ack, '2026-03-01T09:00:00.000Z', 'the platform answered 503', true);
    expect(waiting()[0]).toBe(
      `job ${ack} ack.singleOrder waits until 2026-03-01T09:00:00.000Z, as the other side’s Retry-After asked, after 2 failed tries; the last: the platform answered 503`,
    );

    claimJobs(store, [status], '2026-03-01T08:05:00.000Z', undefined);
    markDead(store, status, { attempts: 1, error: 'HTTP 400', status: 400 });
    addDeadLetter(store, status, { reason: 'the platform refused the status: HTTP 400' });
    expect(waiting()).toContain(
      `job ${status} orderStatus is a dead letter: the platform refused the status: HTTP 400; it waits for an operator (retry once fixed, or drop)`,
    );
  });

  it('a pause of its writes or of its pulls, a failed pull of its resource, a quarantined version', () => {
    const status = job('orderStatus');
    pause(store, 'push', 'orderStatus');
    pause(store, 'pull', '*');
    const run = startRun(store, 'singleOrder', 'created');
    recordRun(store, run, {
      fetched: 0,
      new: 0,
      repeats: 0,
      quarantined: 0,
      ok: false,
      error: 'the list passed sync.maxListBytes',
    });
    quarantine(store, 'singleOrder', 'o-1', 'status: expected a number', '{"_id":"o-1"}');
    expect(waiting()).toEqual([
      `a version was quarantined at ${NOW}: status: expected a number; a version the platform sends fixed is pulled as usual`,
      `the pulls of singleOrder are paused since ${NOW}: changes on the platform are not pulled (homecare-sync resume pull)`,
      `the last pull of singleOrder (created) failed at ${NOW}: the list passed sync.maxListBytes`,
      `job ${status} orderStatus is held by a pause of the platform writes since ${NOW} (homecare-sync resume push orderStatus)`,
    ]);
  });
});

describe('a story read at any size', () => {
  it('reads every table through an index, never a whole table', () => {
    job('ack.singleOrder');
    store.db
      .prepare(
        `INSERT INTO ledger (resource, _id, version, seen_at, delivered_at)
         VALUES ('singleOrder', 'o-1', @v, @v, @v)`,
      )
      .run({ v: NOW });
    const plans = queryPlansOf(store, () => {
      storyOf(store, subjectOfEntity(store, 'singleOrder:o-1'), { pausable: isPlatformWrite });
    });
    expect(plans.length).toBeGreaterThan(5);
    const scans = plans.filter((plan) => WHOLE_TABLE.test(plan));
    expect(scans).toEqual([]);
  });
});
