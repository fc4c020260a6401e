import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { reportDone, type JobObserver } from '../../../src/queue/jobReport.js';
import { upsertMirror, type StoredJob } from '../../../src/store/index.js';
import { tempStores } from '../../support/store/tempStore.js';
import { FakeClock } from '../../support/fakeClock.js';

function job(kind: string): StoredJob {
  return {
    id: 7,
    kind,
    entityKey: 'singleOrder:o-1',
    idempotencyKey: undefined,
    payload: {},
    state: 'running',
    attempts: 0,
    nextAttemptAt: '2026-03-01T12:00:00.000Z',
    retryAfterUntil: undefined,
    lastError: undefined,
    lastStatus: undefined,
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-01T12:00:00.000Z',
    supersededBy: undefined,
    leaseUntil: undefined,
    batch: undefined,
  };
}

describe('a job done', () => {
  it('counts the one record version a delivery job hands over, by its resource', () => {
    const calls: unknown[] = [];
    const observer: JobObserver = {
      jobEnded: (kind, outcome) => calls.push(['ended', kind, outcome]),
      recordsDelivered: (resource, count) => calls.push(['delivered', resource, count]),
      acknowledged: () => calls.push(['acknowledged']),
    };
    const stores = tempStores();
    try {
      const store = stores.open();
      const context = { store, clock: new FakeClock(), logger: pino({ enabled: false }), observer };
      reportDone(context, job('deliver.singleOrder'));
      expect(calls).toEqual([
        ['ended', 'deliver.singleOrder', 'done'],
        ['delivered', 'singleOrder', 1],
      ]);
    } finally {
      stores.cleanup();
    }
  });

  it('observes the seconds from the creation of an order to its acknowledgement', () => {
    const latencies: [string, number][] = [];
    const observer: JobObserver = {
      jobEnded: () => {},
      recordsDelivered: () => {},
      acknowledged: (resource, seconds) => latencies.push([resource, seconds]),
    };
    const stores = tempStores();
    try {
      const store = stores.open();
      const order = { _id: 'o-1', status: 1, createdAt: '2026-01-15T07:59:30.000Z' };
      upsertMirror(store, 'singleOrder', order, '2026-01-15T08:00:00.000Z');
      const clock = new FakeClock('2026-01-15T08:00:00.000Z');
      const context = { store, clock, logger: pino({ enabled: false }), observer };
      reportDone(context, { ...job('ack.singleOrder'), payload: { id: 'o-1' } });
      expect(latencies).toEqual([['singleOrder', 30]]);
    } finally {
      stores.cleanup();
    }
  });
});
