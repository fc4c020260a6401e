import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  completeJob,
  getLedgerEntry,
  insertJob,
  markDelivered,
  recordVersion,
  sha256Of,
  upsertMirror,
  type Store,
} from '../../../src/store/index.js';
import { databaseAtVersion, tempStores, type TempStores } from '../../support/store/tempStore.js';

let temp: TempStores;
beforeEach(() => {
  temp = tempStores();
});
afterEach(() => temp.cleanup());

const AT = '2026-01-15T07:00:00.000Z';
const V1 = '2026-01-15T06:00:00.000Z';
const V2 = '2026-01-15T06:30:00.000Z';

const text = (id: string, status: number) => JSON.stringify({ _id: id, status });

/** A delivery job of one version, as the pull queues it. */
const queueDelivery = (store: Store, id: string, version: string) =>
  insertJob(store, {
    kind: 'deliver.singleOrder',
    entityKey: `singleOrder:${id}`,
    payload: { resource: 'singleOrder', id, version },
    idempotencyKey: `singleOrder:${id}:${version}`,
    supersedes: false,
  }).id;

/** A version as the pull stores it: its text in the mirror, its hash in the ledger. */
function pulled(store: Store, id: string, version: string, status: number): number {
  const json = text(id, status);
  recordVersion(store, 'singleOrder', id, version, { sha256: sha256Of(json) });
  upsertMirror(store, 'singleOrder', JSON.parse(json) as { _id: string }, version, json);
  return queueDelivery(store, id, version);
}

describe('when the mirror moves on from a version', () => {
  it('keeps the text of a version whose delivery may still run in the ledger', () => {
    const store = temp.open();
    pulled(store, 'due', V1, 0);
    expect(getLedgerEntry(store, 'singleOrder', 'due', V1)?.json).toBeUndefined();

    upsertMirror(store, 'singleOrder', { _id: 'due', status: 1 }, V2);
    expect(getLedgerEntry(store, 'singleOrder', 'due', V1)).toMatchObject({
      json: text('due', 0),
      sha256: sha256Of(text('due', 0)),
    });
  });

  it('keeps it too when the answer to our own write replaces it under the same version', () => {
    const store = temp.open();
    pulled(store, 'answered', V1, 0);
    upsertMirror(store, 'singleOrder', { _id: 'answered', status: 1, salesId: 'S-1' }, V1);
    expect(getLedgerEntry(store, 'singleOrder', 'answered', V1)?.json).toBe(text('answered', 0));
  });

  it('keeps it too when the same text comes back under another version', () => {
    const store = temp.open();
    pulled(store, 'restamped', V1, 0);
    const same = text('restamped', 0);
    upsertMirror(store, 'singleOrder', JSON.parse(same) as { _id: string }, V2, same);
    expect(getLedgerEntry(store, 'singleOrder', 'restamped', V1)?.json).toBe(same);
  });

  it('keeps only the hash of a version already delivered', () => {
    const store = temp.open();
    const job = pulled(store, 'done', V1, 0);
    markDelivered(store, 'singleOrder', 'done', V1);
    store.db.prepare("UPDATE queue SET state = 'running' WHERE id = ?").run(job);
    completeJob(store, job);

    upsertMirror(store, 'singleOrder', { _id: 'done', status: 1 }, V2);
    expect(getLedgerEntry(store, 'singleOrder', 'done', V1)).toMatchObject({
      json: undefined,
      sha256: sha256Of(text('done', 0)),
    });
  });
});

/** A database as the build before this step left it (schema version 5), with its rows. */
function databaseAtVersion5(path: string): void {
  const db = databaseAtVersion(path, 5);
  const ledger = db.prepare(
    `INSERT INTO ledger (resource, _id, version, seen_at, delivered_at, json)
     VALUES ('singleOrder', ?, ?, ?, ?, ?)`,
  );
  const mirror = db.prepare(
    `INSERT INTO mirror (resource, _id, version, json, updated_at)
     VALUES ('singleOrder', ?, ?, ?, ?)`,
  );
  const job = db.prepare(
    `INSERT INTO queue (kind, entity_key, idempotency_key, payload, next_attempt_at, created_at,
       updated_at) VALUES ('deliver.singleOrder', ?, ?, ?, ?, ?, ?)`,
  );
  const due = (id: string) =>
    job.run(
      `singleOrder:${id}`,
      `singleOrder:${id}:${V1}`,
      JSON.stringify({ resource: 'singleOrder', id, version: V1 }),
      AT,
      AT,
      AT,
    );
  ledger.run('delivered', V1, AT, AT, text('delivered', 0));
  mirror.run('delivered', V2, text('delivered', 1), AT);
  ledger.run('behind', V1, AT, null, text('behind', 0));
  mirror.run('behind', V2, text('behind', 1), AT);
  due('behind');
  ledger.run('mirrored', V1, AT, null, text('mirrored', 0));
  mirror.run('mirrored', V1, text('mirrored', 0), AT);
  due('mirrored');
  // Pulled by a build before the ledger kept records: only the mirror has its text.
  ledger.run('old', V1, AT, null, null);
  mirror.run('old', V1, text('old', 0), AT);
  due('old');
  db.close();
}

describe('the step to records stored once', () => {
  it('hashes every kept record and drops the copies no delivery needs', () => {
    databaseAtVersion5(join(temp.folder, 'homecare-sync.db'));
    const store = temp.open();
    const entry = (id: string) => getLedgerEntry(store, 'singleOrder', id, V1);

    expect(entry('delivered')).toMatchObject({
      json: undefined,
      sha256: sha256Of(text('delivered', 0)),
    });
    expect(entry('behind')).toMatchObject({
      json: text('behind', 0),
      sha256: sha256Of(text('behind', 0)),
    });
    expect(entry('mirrored')).toMatchObject({
      json: undefined,
      sha256: sha256Of(text('mirrored', 0)),
    });
    expect(entry('old')).toMatchObject({ json: undefined, sha256: undefined });
    const mirror = store.db
      .prepare("SELECT group_concat(sql, ';') FROM sqlite_schema WHERE tbl_name = 'mirror'")
      .pluck()
      .get();
    expect(mirror).toMatch(/mirror_keeps_due_versions/);
  });

  it('keeps what the mirror held of a version still due when the mirror moves on', () => {
    databaseAtVersion5(join(temp.folder, 'homecare-sync.db'));
    const store = temp.open();
    for (const id of ['mirrored', 'old']) {
      upsertMirror(store, 'singleOrder', { _id: id, status: 1 }, V2);
      expect(getLedgerEntry(store, 'singleOrder', id, V1)?.json).toBe(text(id, 0));
    }
  });
});
