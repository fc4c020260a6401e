import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countUndelivered,
  getLedgerEntry,
  markDelivered,
  recordVersion,
  setAckState,
  startRun,
} from '../../../src/store/index.js';
import type { Store } from '../../../src/store/index.js';
import { tempStores } from '../../support/store/tempStore.js';
import type { TempStores } from '../../support/store/tempStore.js';

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
    expect(recordVersion(store, 'singleOrder', order, '2026-01-15T07:00:00.000Z', { runId })).toBe(
      true,
    );
    temp.clock.advance(60_000);
    const repeatRun = startRun(store, 'singleOrder', 'created');
    expect(
      recordVersion(store, 'singleOrder', order, '2026-01-15T07:00:00.000Z', {
        runId: repeatRun,
      }),
    ).toBe(false);

    expect(getLedgerEntry(store, 'singleOrder', order, '2026-01-15T07:00:00.000Z')).toMatchObject({
      runId,
      seenAt: '2026-01-15T08:00:00.000Z',
      deliveredAt: undefined,
      ackState: 'none',
    });
    expect(countUndelivered(store)).toBe(1);
  });

  it('keeps each version and each resource apart', () => {
    expect(recordVersion(store, 'singleOrder', order, 'v1')).toBe(true);
    expect(recordVersion(store, 'singleOrder', order, 'v2')).toBe(true);
    expect(recordVersion(store, 'directOrder', order, 'v1')).toBe(true);
    expect(countUndelivered(store)).toBe(3);
  });

  it('numbers versions in the order they were seen, even when the clock went back', () => {
    recordVersion(store, 'singleOrder', order, 'v1');
    temp.clock.advance(-3_600_000);
    recordVersion(store, 'singleOrder', other, 'v1');
    recordVersion(store, 'singleOrder', order, 'v2');

    const seq = (id: string, version: string) =>
      getLedgerEntry(store, 'singleOrder', id, version)?.seq ?? 0;
    expect(seq(order, 'v1')).toBeLessThan(seq(other, 'v1'));
    expect(seq(other, 'v1')).toBeLessThan(seq(order, 'v2'));
  });

  it('marks a delivery once and counts only the versions not delivered', () => {
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
    expect(countUndelivered(store)).toBe(1);
  });

  it('notes that an acknowledgement was queued', () => {
    recordVersion(store, 'singleOrder', order, 'v1');
    expect(getLedgerEntry(store, 'singleOrder', order, 'v1')?.ackState).toBe('none');
    expect(setAckState(store, 'singleOrder', order, 'v1', 'queued')).toBe(true);
    expect(getLedgerEntry(store, 'singleOrder', order, 'v1')?.ackState).toBe('queued');
    expect(setAckState(store, 'singleOrder', order, 'unknown', 'queued')).toBe(false);
  });

  it("keeps each version's record", () => {
    recordVersion(store, 'singleOrder', order, 'v1', { json: '{"status":0}' });
    recordVersion(store, 'singleOrder', other, 'v1', { json: '{"status":3}' });
    expect(getLedgerEntry(store, 'singleOrder', order, 'v1')?.json).toBe('{"status":0}');
    expect(getLedgerEntry(store, 'singleOrder', other, 'v1')?.json).toBe('{"status":3}');
  });
});
