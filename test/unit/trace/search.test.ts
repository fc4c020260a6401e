import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue } from '../../../src/queue/index.js';
import {
  inboxJobKey,
  insertInboxMessage,
  upsertMirror,
  type Store,
} from '../../../src/store/index.js';
import { searchKey, type KeySearch } from '../../../src/trace/index.js';
import { queryPlansOf, WHOLE_TABLE } from '../../support/queryPlans.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

let stores: TempStores;
let store: Store;
const V = '2026-03-01T08:00:00.000Z';

beforeEach(() => {
  stores = tempStores();
  store = stores.open();
  upsertMirror(
    store,
    'singleOrder',
    { _id: 'order-1', salesId: 'SO-4711', erpOrderNumber: 'AB-77' },
    V,
  );
  upsertMirror(store, 'singleOrder', { _id: 'order-2', salesId: 'SO-4712' }, V);
  upsertMirror(store, 'patient', { _id: 'pat-1', customerId: 'K-100' }, V);
  upsertMirror(store, 'article', { _id: 'art-1', customerNumber: 'ART-9' }, V);
  upsertMirror(store, 'device', { _id: 'dev-1', serialNumber: 'SN-123' }, V);
  const message = {
    kind: 'orderStatus',
    source: 'file' as const,
    name: 'Rueckmeldung-7.csv#2',
    sha256: 'a'.repeat(64),
    body: '{}',
    entity: 'singleOrder:order-2',
  };
  insertInboxMessage(store, message);
  enqueue(store, {
    kind: 'orderStatus',
    entityKey: 'singleOrder:order-2',
    payload: {},
    idempotencyKey: inboxJobKey(message),
  });
  insertInboxMessage(store, {
    ...message,
    source: 'http',
    name: 'erp-request-55',
    sha256: 'b'.repeat(64),
    entity: 'patient:K-100',
  });
});
afterEach(() => stores.cleanup());

/** What the page shows of a search: how it matched, and each record with the key that did. */
const shown = (search: KeySearch) => ({
  how: search.how,
  found: search.matches.map((m) => `${m.subject.resource} ${m.subject.id} by ${m.kind} ${m.value}`),
  more: search.more,
});

describe('the console’s search: exact first, then by prefix, saying which key matched', () => {
  it.each([
    ['order-1', 'singleOrder order-1 by _id order-1'],
    ['SO-4711', 'singleOrder order-1 by salesId SO-4711'],
    ['AB-77', 'singleOrder order-1 by erpOrderNumber AB-77'],
    ['K-100', 'patient pat-1 by customerId K-100'],
    ['ART-9', 'article art-1 by customerNumber ART-9'],
    ['SN-123', 'device dev-1 by serialNumber SN-123'],
    ['Rueckmeldung-7.csv', 'singleOrder order-2 by inboxFile Rueckmeldung-7.csv'],
    ['erp-request-55', 'patient pat-1 by requestKey erp-request-55'],
    [
      'order-1_2026-03-01T08-00-00.000Z.json',
      'singleOrder order-1 by outboxFile order-1_2026-03-01T08-00-00.000Z.json',
    ],
    ['  SO-4711 ', 'singleOrder order-1 by salesId SO-4711'],
  ])('%s exactly', (key, found) => {
    expect(shown(searchKey(store, key, 20))).toEqual({ how: 'exact', found: [found], more: false });
  });

  it('a job id', () => {
    const { id } = enqueue(store, { kind: 'patient', entityKey: 'patient:K-100', payload: {} });
    expect(shown(searchKey(store, String(id), 20)).found).toEqual([`patient pat-1 by jobId ${id}`]);
  });

  it('by the start of a key when none is whole, as many as asked and whether there are more', () => {
    expect(shown(searchKey(store, 'SO-47', 20))).toEqual({
      how: 'prefix',
      found: ['singleOrder order-1 by salesId SO-4711', 'singleOrder order-2 by salesId SO-4712'],
      more: false,
    });
    expect(shown(searchKey(store, 'SO-47', 1))).toEqual({
      how: 'prefix',
      found: ['singleOrder order-1 by salesId SO-4711'],
      more: true,
    });
    expect(shown(searchKey(store, 'Rueck', 20)).found).toEqual([
      'singleOrder order-2 by inboxFile Rueckmeldung-7.csv#2',
    ]);
    expect(shown(searchKey(store, 'AB-7', 20)).found).toEqual([
      'singleOrder order-1 by erpOrderNumber AB-77',
    ]);
  });

  it('nothing for an unknown key, nor for a start shorter than three characters', () => {
    expect(shown(searchKey(store, 'nothing-like-it', 20))).toEqual({
      how: 'prefix',
      found: [],
      more: false,
    });
    expect(searchKey(store, 'SO', 20).matches).toEqual([]);
    expect(searchKey(store, '   ', 20).matches).toEqual([]);
  });

  it('reads every table through an index, never a whole table, for a key it does not know', () => {
    const plans = queryPlansOf(store, () => {
      searchKey(store, 'nothing-like-it', 20);
      searchKey(store, 'AB-77', 20);
    });
    expect(plans.length).toBeGreaterThan(5);
    const scans = plans.filter((plan) => WHOLE_TABLE.test(plan));
    expect(scans).toEqual([]);
  });
});
