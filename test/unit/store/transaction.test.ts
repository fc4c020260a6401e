import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  advanceCheckpoint,
  getCheckpoint,
  getMirror,
  recordVersion,
  transaction,
  countUndelivered,
  upsertMirror,
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

const record = { _id: 'a1a1a1a1-1111-4222-8333-444444444444', customerNumber: 'ART-4711' };

function pull(fail: boolean): void {
  transaction(store, () => {
    upsertMirror(store, 'article', record, 'v1');
    recordVersion(store, 'article', record._id, 'v1');
    advanceCheckpoint(store, 'article', '', '2026-01-15T08:00:00Z');
    if (fail) throw new Error('ERP hand-off of article failed');
  });
}

describe('transaction', () => {
  it('leaves nothing behind when the work throws', () => {
    expect(() => pull(true)).toThrow('ERP hand-off of article failed');
    expect(getMirror(store, 'article', record._id)).toBeUndefined();
    expect(countUndelivered(store)).toBe(0);
    expect(getCheckpoint(store, 'article')).toBeUndefined();
  });

  it('commits records and checkpoint together, visible to another connection', () => {
    pull(false);
    const reader = temp.open();
    expect(getMirror(reader, 'article', record._id)?.version).toBe('v1');
    expect(countUndelivered(reader)).toBe(1);
    expect(getCheckpoint(reader, 'article')?.watermark).toBe('2026-01-15T08:00:00.000Z');
  });

  it('rolls back only the inner part of a nested transaction that fails', () => {
    const result = transaction(store, () => {
      upsertMirror(store, 'article', record, 'v1');
      try {
        transaction(store, () => {
          recordVersion(store, 'article', record._id, 'v1');
          throw new Error('inner failure');
        });
      } catch {
        // The outer work goes on without the inner part.
      }
      return 'outer done';
    });
    expect(result).toBe('outer done');
    expect(getMirror(store, 'article', record._id)).toBeDefined();
    expect(countUndelivered(store)).toBe(0);
  });

  it("commits without its own fsync only when asked, and never inside another's transaction", () => {
    const rule = () => store.db.pragma('synchronous', { simple: true });
    const FULL = 2;
    const NORMAL = 1;
    expect(transaction(store, rule)).toBe(FULL);
    expect(transaction(store, rule, 'withTheNextSync')).toBe(NORMAL);
    expect(rule()).toBe(FULL);
    expect(transaction(store, () => transaction(store, rule, 'withTheNextSync'))).toBe(FULL);
    expect(() =>
      transaction(
        store,
        () => {
          throw new Error('the slice failed');
        },
        'withTheNextSync',
      ),
    ).toThrow('the slice failed');
    expect(rule()).toBe(FULL);
    transaction(store, () => upsertMirror(store, 'article', record, 'v1'), 'withTheNextSync');
    expect(getMirror(temp.open(), 'article', record._id)?.version).toBe('v1');
  });
});
