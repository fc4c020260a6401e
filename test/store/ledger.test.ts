import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countUndelivered,
  setWaitingFor,
  waitingVersions,
  awaitingAcknowledgement,
  getLedgerEntry,
  markDelivered,
  recordVersion,
  setAckState,
  startRun,
  undelivered,
} from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { tempStores } from './tempStore.js';
import type { TempStores } from './tempStore.js';

let temp: TempStores;
let store: Store;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
});
afterEach(() => temp.cleanup());

const order = 'b7e4c2a0-1d3f-4e5a-9b8c-7d6e5f4a3b2c';
const other = 'c8f5d3b1-2e4a-4f6b-8c9d-8e7f6a5b4c3d';

describe('ledger', () => {
  it('records a version once; repeats are no-ops', () => {
    const runId = startRun(store, 'singleOrder', 'created');
    expect(recordVersion(store, 'singleOrder', order, '2026-01-15T07:00:00.000Z', runId)).toBe(
      true,
    );
    temp.clock.advance(60_000);
    const repeatRun = startRun(store, 'singleOrder', 'created');
    expect(recordVersion(store, 'singleOrder', order, '2026-01-15T07:00:00.000Z', repeatRun)).toBe(
      false,
    );

    expect(getLedgerEntry(store, 'singleOrder', order, '2026-01-15T07:00:00.000Z')).toMatchObject({
      runId,
      seenAt: '2026-01-15T08:00:00.000Z',
      deliveredAt: undefined,
      ackState: 'none',
    });
    expect(undelivered(store, 10)).toHaveLength(1);
  });

  it('keeps each version and each resource apart', () => {
    expect(recordVersion(store, 'singleOrder', order, 'v1')).toBe(true);
    expect(recordVersion(store, 'singleOrder', order, 'v2')).toBe(true);
    expect(recordVersion(store, 'directOrder', order, 'v1')).toBe(true);
    expect(undelivered(store, 10)).toHaveLength(3);
  });

  it('lists undelivered versions in the order they were seen, even when the clock went back', () => {
    recordVersion(store, 'singleOrder', order, 'v1');
    temp.clock.advance(-3_600_000);
    recordVersion(store, 'singleOrder', other, 'v1');
    recordVersion(store, 'singleOrder', order, 'v2');

    expect(undelivered(store, 10).map((e) => [e.id, e.version])).toEqual([
      [order, 'v1'],
      [other, 'v1'],
      [order, 'v2'],
    ]);
    expect(undelivered(store, 2)).toHaveLength(2);
  });

  it('marks a delivery once and leaves delivered versions out', () => {
    recordVersion(store, 'singleOrder', order, 'v1');
    recordVersion(store, 'singleOrder', order, 'v2');
    temp.clock.advance(1000);
    expect(markDelivered(store, 'singleOrder', order, 'v1')).toBe(true);
    temp.clock.advance(1000);
    expect(markDelivered(store, 'singleOrder', order, 'v1')).toBe(false);
    expect(markDelivered(store, 'singleOrder', order, 'unknown')).toBe(false);

    expect(getLedgerEntry(store, 'singleOrder', order, 'v1')?.deliveredAt).toBe(
      '2026-01-15T08:00:01.000Z',
    );
    expect(undelivered(store, 10).map((e) => e.version)).toEqual(['v2']);
  });

  it('tracks acknowledgements that are due', () => {
    recordVersion(store, 'singleOrder', order, 'v1');
    recordVersion(store, 'singleOrder', other, 'v1');
    setAckState(store, 'singleOrder', other, 'v1', 'pending');
    setAckState(store, 'singleOrder', order, 'v1', 'pending');
    expect(awaitingAcknowledgement(store, 10).map((e) => e.id)).toEqual([order, other]);

    setAckState(store, 'singleOrder', order, 'v1', 'queued');
    expect(awaitingAcknowledgement(store, 10).map((e) => e.id)).toEqual([other]);
  });

  it("keeps each version's record and what it waits for, and counts the undelivered", () => {
    recordVersion(store, 'singleOrder', order, 'v1', undefined, '{"status":0}');
    recordVersion(store, 'singleOrder', other, 'v1', undefined, '{"status":3}');
    expect(undelivered(store, 10).map((e) => e.json)).toEqual(['{"status":0}', '{"status":3}']);
    setWaitingFor(store, 'singleOrder', order, 'v1', 'missing patient p1');
    expect(waitingVersions(store, 10).map((e) => [e.id, e.waitingFor])).toEqual([
      [order, 'missing patient p1'],
    ]);
    markDelivered(store, 'singleOrder', other, 'v1');
    expect(countUndelivered(store)).toBe(1);
    setWaitingFor(store, 'singleOrder', order, 'v1', undefined);
    expect(waitingVersions(store, 10)).toEqual([]);
  });
});
