import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  deadLettersOf,
  getLedgerEntry,
  listStoredJobs,
  type StoredJob,
} from '../../../src/store/index.js';
import { databaseAtVersion, tempStores, type TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
beforeEach(() => {
  temp = tempStores();
});
afterEach(() => temp.cleanup());

const AT = '2026-01-15T07:00:00.000Z';

/** A database as the build before delivery jobs left it: schema version 3, with deliveries. */
function databaseAtVersion3(path: string): void {
  const db = databaseAtVersion(path, 3);
  const ledger = db.prepare(
    `INSERT INTO ledger (resource, _id, version, seen_at, delivered_at, json, waiting_for,
       delivery_attempts, next_delivery_at, rejection) VALUES (?, ?, 'v1', ?, ?, '{}', ?, ?, ?, ?)`,
  );
  ledger.run('singleOrder', 'delivered', AT, AT, null, 0, null, null);
  ledger.run('singleOrder', 'waiting', AT, null, 'missing patient p-1', 2, AT, null);
  ledger.run('article', 'refused', AT, null, null, 1, null, 'the ERP said 422');
  ledger.run('article', 'replayed', AT, null, null, 1, null, 'the ERP said 422');
  const redeliver = db.prepare(
    `INSERT INTO queue (kind, entity_key, payload, state, next_attempt_at, created_at, updated_at)
     VALUES ('erp.redeliver', ?, ?, ?, ?, ?, ?)`,
  );
  for (const [id, state] of [
    ['refused', 'dead'],
    ['replayed', 'pending'],
  ] as const) {
    const payload = JSON.stringify({ resource: 'article', id, version: 'v1' });
    const job = redeliver.run(`deliver:article:${id}`, payload, state, AT, AT, AT);
    db.prepare(
      `INSERT INTO dead_letters (job_id, reason, http_status, dead_at, resolved_at, resolution)
       VALUES (?, 'the ERP said 422', 422, ?, ?, ?)`,
    ).run(
      job.lastInsertRowid,
      AT,
      state === 'dead' ? null : AT,
      state === 'dead' ? null : 'retried',
    );
  }
  db.close();
}

describe('the step to delivery jobs', () => {
  it('turns every version not yet delivered into a deliver job and loses no refusal', () => {
    databaseAtVersion3(join(temp.folder, 'homecare-sync.db'));
    const store = temp.open();

    const jobs = listStoredJobs(store, ['pending', 'dead'], -1, 'deliver.');
    const byKey = new Map<string | undefined, StoredJob>(jobs.map((j) => [j.idempotencyKey, j]));
    expect([...byKey.keys()].sort()).toEqual([
      'article:refused:v1',
      'article:replayed:v1',
      'singleOrder:waiting:v1',
    ]);
    expect(byKey.get('singleOrder:waiting:v1')).toMatchObject({
      kind: 'deliver.singleOrder',
      entityKey: 'singleOrder:waiting',
      payload: { resource: 'singleOrder', id: 'waiting', version: 'v1' },
      state: 'pending',
      attempts: 2,
      lastError: 'missing patient p-1',
    });
    const refused = byKey.get('article:refused:v1');
    expect(refused?.state).toBe('dead');
    expect(deadLettersOf(store, refused?.id ?? 0)).toMatchObject([
      { reason: 'the ERP said 422', httpStatus: 422, resolvedAt: undefined },
    ]);
    expect(byKey.get('article:replayed:v1')).toMatchObject({ state: 'pending', attempts: 0 });

    const old = listStoredJobs(store, ['superseded', 'done', 'dead', 'pending']).filter(
      (job) => job.kind === 'erp.redeliver',
    );
    expect(old.map((job) => job.state)).toEqual(['superseded', 'superseded']);
    expect(getLedgerEntry(store, 'singleOrder', 'delivered', 'v1')?.deliveredAt).toBe(AT);
    const columns = store.db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('ledger');
    expect(columns).not.toContain('rejection');
    expect(columns).not.toContain('delivery_attempts');
  });
});
