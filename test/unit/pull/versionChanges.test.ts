import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqlitePullStore } from '../../../src/pull/pullStore.js';
import type { PulledRecord, PullStore } from '../../../src/pull/puller.js';
import { upsertMirror, type Store } from '../../../src/store/index.js';
import { tempStores, type TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
let store: Store;
let pulls: PullStore;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
  pulls = sqlitePullStore(store, () => undefined);
});
afterEach(() => temp.cleanup());

const ADDRESS = { name: 'Erika Mustermann', address: 'Hauptstr. 1', city: 'Köln' };

function order(id: string, stamp: string, fields: Record<string, unknown> = {}): PulledRecord {
  const record = { _id: id, timestamp: stamp, status: 1, deliveryAddress: ADDRESS, ...fields };
  return { id, version: stamp, record, json: JSON.stringify(record) };
}

/** Commits one batch of these orders. */
function pull(...records: PulledRecord[]): void {
  const at = temp.clock.now().toISOString();
  const target = { resource: 'singleOrder' as const, filter: '' };
  pulls.commitBatch({ target, mode: 'incremental', startedAt: at }, records, []);
}

/** What the ledger noted each version changed, by `_id:version`, in the order seen. */
const changes = () =>
  store.db
    .prepare("SELECT _id || ':' || version AS version, changed FROM ledger ORDER BY seq")
    .all();

/** #27.1: the pull notes the names of the fields each version changed, with the version. */
describe('what a pulled version changed', () => {
  it('notes a record first seen as new, and a later version by the names of its changed fields', () => {
    pull(order('o-1', 'v1'), order('o-2', 'v1'));
    pull(order('o-1', 'v2', { status: 4, deliveryAddress: { ...ADDRESS, city: 'Bonn' } }));
    expect(changes()).toEqual([
      { version: 'o-1:v1', changed: '"new"' },
      { version: 'o-2:v1', changed: '"new"' },
      { version: 'o-1:v2', changed: '["deliveryAddress.city","status"]' },
    ]);
  });

  it('compares a version with the one before it in the same batch', () => {
    pull(order('o-1', 'v1'));
    pull(order('o-1', 'v2', { status: 4 }), order('o-1', 'v3', { status: 4, comment: 'x' }));
    expect(changes().slice(1)).toEqual([
      { version: 'o-1:v2', changed: '["status"]' },
      { version: 'o-1:v3', changed: '["comment"]' },
    ]);
  });

  it('compares with a record the mirror holds from elsewhere, and notes nothing against a reduced one', () => {
    upsertMirror(store, 'singleOrder', { ...order('o-1', 'v1').record, _id: 'o-1' }, 'v1');
    upsertMirror(store, 'singleOrder', { _id: 'o-2', _reduced: '2026-01-01T00:00:00Z' }, 'v1');
    pull(order('o-1', 'v2', { status: 2 }), order('o-2', 'v2'));
    expect(changes()).toEqual([
      { version: 'o-1:v2', changed: '["status"]' },
      { version: 'o-2:v2', changed: null },
    ]);
  });
});
