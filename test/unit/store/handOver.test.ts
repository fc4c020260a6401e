import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  mirrorKey,
  mirrorRecords,
  recordVersion,
  upsertMirror,
  versionRecords,
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

const V1 = '2026-01-15T07:00:00.000Z';
const V2 = '2026-01-15T08:00:00.000Z';
const order = (id: string, version: string, note: string) => ({
  _id: id,
  timestamp: version,
  note,
});

describe('reads for a hand-over to the ERP', () => {
  it('reads the records of many versions in the order asked: ledger text, else the same version in the mirror', () => {
    // o1: the ledger keeps V1's text (the mirror moved on to V2).
    recordVersion(store, 'singleOrder', 'o1', V1, { json: JSON.stringify(order('o1', V1, 'old')) });
    upsertMirror(store, 'singleOrder', order('o1', V2, 'new'), V2);
    // o2: the ledger noted V2 without its text; the mirror holds V2.
    recordVersion(store, 'singleOrder', 'o2', V2, { sha256: 'x' });
    upsertMirror(store, 'singleOrder', order('o2', V2, 'mirrored'), V2);
    // o3: noted V1 without text, the mirror holds V2 only: not kept anywhere.
    recordVersion(store, 'singleOrder', 'o3', V1, { sha256: 'y' });
    upsertMirror(store, 'singleOrder', order('o3', V2, 'newer'), V2);

    const records = versionRecords(store, [
      { resource: 'singleOrder', id: 'o3', version: V1 },
      { resource: 'singleOrder', id: 'o2', version: V2 },
      { resource: 'singleOrder', id: 'o1', version: V1 },
      { resource: 'singleOrder', id: 'o1', version: V2 },
      { resource: 'singleOrder', id: 'unknown', version: V1 },
    ]);
    expect(records).toEqual([
      undefined,
      order('o2', V2, 'mirrored'),
      order('o1', V1, 'old'),
      order('o1', V2, 'new'),
      undefined,
    ]);
    expect(versionRecords(store, [])).toEqual([]);
  });

  it('reads the mirrored records of many ids at once, leaving out those not mirrored', () => {
    upsertMirror(store, 'patient', { _id: 'p1', customerId: 'K-1' }, V1);
    upsertMirror(store, 'article', { _id: 'p1', customerNumber: 'A-1' }, V1);
    const found = mirrorRecords(store, [
      { resource: 'patient', id: 'p1' },
      { resource: 'article', id: 'p1' },
      { resource: 'patient', id: 'p2' },
    ]);
    expect([...found.keys()].sort()).toEqual(
      [mirrorKey('patient', 'p1'), mirrorKey('article', 'p1')].sort(),
    );
    expect(found.get(mirrorKey('patient', 'p1'))).toEqual({ _id: 'p1', customerId: 'K-1' });
    expect(found.get(mirrorKey('article', 'p1'))).toEqual({ _id: 'p1', customerNumber: 'A-1' });
  });
});
