import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addDeadLetter,
  claimJob,
  completeJob,
  insertJob,
  insertInboxMessage,
  markDead,
  markDelivered,
  quarantine,
  recordOwnWrite,
  recordRun,
  recordVersion,
  resolveDeadLetters,
  setAckState,
  settleInboxMessage,
  startRun,
  upsertMirror,
  type MirrorRecord,
  type Store,
} from '../../../src/store/index.js';
import { pruneStore } from '../../../src/housekeeping/index.js';
import { autoVacuumOf } from '../../../src/store/space.js';
import { tempStores, type TempStores, RETENTION_DAYS } from '../../support/store/tempStore.js';

const DAY = 86_400_000;
const days = RETENTION_DAYS;

let temp: TempStores;
let store: Store;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
});
afterEach(() => temp.cleanup());

const count = (sql: string): number => store.db.prepare(sql).pluck().get() as number;
const prune = (batchSize = 2) => pruneStore(store, days, { batchSize });

function job(key: string, payload: Record<string, unknown> = {}): number {
  return insertJob(store, {
    kind: 'deliver.singleOrder',
    entityKey: key,
    payload,
    supersedes: false,
  }).id;
}

function finished(key: string, payload: Record<string, unknown> = {}): number {
  const id = job(key, payload);
  claimJob(store, id, '2099-01-01T00:00:00.000Z');
  completeJob(store, id);
  return id;
}

function dead(key: string, payload: Record<string, unknown> = {}): number {
  const id = job(key, payload);
  claimJob(store, id, '2099-01-01T00:00:00.000Z');
  markDead(store, id, { attempts: 1, error: 'refused', status: 422 });
  addDeadLetter(store, id, { reason: 'refused', httpStatus: 422 });
  return id;
}

function order(id: string, version: string, fields: Record<string, unknown>): MirrorRecord {
  const record: MirrorRecord = {
    _id: id,
    timestamp: version,
    patientId: 'p-1',
    deliveryAddress: { name: 'Erika Mustermann', street: 'Hauptstr. 1' },
    ...fields,
  };
  upsertMirror(store, 'singleOrder', record, version);
  return record;
}

const jobIds = () => store.db.prepare('SELECT id FROM queue ORDER BY id').pluck().all();

describe('pruneStore', () => {
  it('removes finished and dropped jobs past retention, never pending, running or dead ones', async () => {
    const old = finished('singleOrder:o-1');
    const dropped = dead('singleOrder:o-2');
    resolveDeadLetters(store, dropped, 'dropped');
    const deadOpen = dead('singleOrder:o-3');
    const waiting = job('singleOrder:o-4');
    const running = job('singleOrder:o-5');
    claimJob(store, running, '2099-01-01T00:00:00.000Z');
    temp.clock.advance(31 * DAY);
    const recent = finished('singleOrder:o-6');
    const newest = finished('singleOrder:o-7');

    const report = await prune();

    expect(report.removed.jobs).toBe(2);
    expect(jobIds()).toEqual([deadOpen, waiting, running, recent, newest]);
    expect(jobIds()).not.toContain(old);
    expect(count('SELECT count(*) FROM dead_letters')).toBe(1);
  });

  it('keeps the newest job so its id is never given out again', async () => {
    const only = finished('singleOrder:o-1');
    temp.clock.advance(31 * DAY);
    await prune();
    expect(jobIds()).toEqual([only]);
  });

  it('keeps the latest run of each list and the last successful pull, removes older runs', async () => {
    const ok = startRun(store, 'article');
    recordRun(store, ok, { fetched: 1, new: 1, repeats: 0, quarantined: 0, ok: true });
    const older = startRun(store, 'singleOrder', 'created');
    recordRun(store, older, { fetched: 1, new: 1, repeats: 0, quarantined: 0, ok: true });
    const failed = startRun(store, 'article');
    recordRun(store, failed, { fetched: 0, new: 0, repeats: 0, quarantined: 0, ok: false });
    const latestFailed = startRun(store, 'article');
    recordVersion(store, 'singleOrder', 'o-1', 'v1', { runId: older });
    temp.clock.advance(31 * DAY);
    const latest = startRun(store, 'singleOrder', 'created');
    recordRun(store, latest, { fetched: 0, new: 0, repeats: 0, quarantined: 0, ok: true });

    const report = await prune(1);

    expect(report.removed.runs).toBe(2);
    expect(store.db.prepare('SELECT id FROM runs ORDER BY id').pluck().all()).toEqual([
      ok,
      latestFailed,
      latest,
    ]);
    expect(count('SELECT count(*) FROM ledger WHERE run_id IS NULL')).toBe(1);
  });

  it('keeps the newest version of each record and every version still on its way', async () => {
    const delivered = (id: string, version: string) => {
      recordVersion(store, 'singleOrder', id, version, { json: `{"_id":"${id}"}` });
      markDelivered(store, 'singleOrder', id, version);
    };
    delivered('o-1', 'v1');
    delivered('o-1', 'v2');
    delivered('o-1', 'v3');
    // o-2: v1 waits for its acknowledgement, v2 not yet handed over.
    delivered('o-2', 'v1');
    setAckState(store, 'singleOrder', 'o-2', 'v1', 'queued');
    job('singleOrder:o-2', { resource: 'singleOrder', id: 'o-2', version: 'v1' });
    recordVersion(store, 'singleOrder', 'o-2', 'v2');
    // o-3: a dead delivery of v1 may still be retried.
    delivered('o-3', 'v1');
    dead('singleOrder:o-3', { resource: 'singleOrder', id: 'o-3', version: 'v1' });
    delivered('o-3', 'v2');
    temp.clock.advance(31 * DAY);
    // o-4: the newer version is inside retention, so the older stays until it is not.
    delivered('o-4', 'v1');
    temp.clock.advance(1000);
    delivered('o-4', 'v2');

    const report = await prune(2);

    expect(report.removed.versions).toBe(2);
    const left = store.db
      .prepare("SELECT _id || ':' || version FROM ledger ORDER BY seq")
      .pluck()
      .all();
    expect(left).toEqual(['o-1:v3', 'o-2:v1', 'o-2:v2', 'o-3:v1', 'o-3:v2', 'o-4:v1', 'o-4:v2']);

    temp.clock.advance(31 * DAY);
    await prune(2);
    expect(store.db.prepare("SELECT version FROM ledger WHERE _id = 'o-4'").pluck().all()).toEqual([
      'v2',
    ]);
  });

  it('empties handled ERP messages past retention, keeping their key and hash', async () => {
    const message = (name: string) =>
      insertInboxMessage(store, {
        kind: 'patient',
        source: 'http',
        name,
        sha256: `hash-${name}`,
        body: '{"lastName":"Mustermann"}',
        entity: `patient:${name}`,
      }).id;
    const done = message('k-1');
    settleInboxMessage(store, done, 'done');
    const rejected = message('k-2');
    settleInboxMessage(store, rejected, 'rejected', 'bad');
    message('k-3');
    temp.clock.advance(31 * DAY);
    const recent = message('k-4');
    settleInboxMessage(store, recent, 'done');

    const report = await prune();

    expect(report.removed.inboxMessages).toBe(2);
    expect(
      store.db.prepare("SELECT name, sha256, body <> '' AS kept FROM inbox_messages").all(),
    ).toEqual([
      { name: 'k-1', sha256: 'hash-k-1', kept: 0 },
      { name: 'k-2', sha256: 'hash-k-2', kept: 0 },
      { name: 'k-3', sha256: 'hash-k-3', kept: 1 },
      { name: 'k-4', sha256: 'hash-k-4', kept: 1 },
    ]);
  });

  it('removes own-write fingerprints past retention', async () => {
    const write = {
      fields: ['status'],
      writtenHash: 'w',
      baseFields: [],
      baseHash: 'b',
      editor: null,
    };
    recordOwnWrite(store, 'singleOrder', 'o-1', write);
    temp.clock.advance(31 * DAY);
    recordOwnWrite(store, 'singleOrder', 'o-2', write);

    expect((await prune()).removed.ownWrites).toBe(1);
    expect(store.db.prepare('SELECT _id FROM own_writes').pluck().all()).toEqual(['o-2']);
  });

  it('removes a quarantined record only once a valid version followed it', async () => {
    quarantine(store, 'singleOrder', 'o-1', 'bad', '{"_id":"o-1","x":1}');
    quarantine(store, 'singleOrder', 'o-2', 'bad', '{"_id":"o-2","x":1}');
    quarantine(store, 'singleOrder', undefined, 'no _id', '{"x":2}');
    temp.clock.advance(1000);
    order('o-1', '2026-01-15T08:00:01.000Z', { status: 1 });
    temp.clock.advance(31 * DAY);
    quarantine(store, 'singleOrder', 'o-3', 'bad', '{"_id":"o-3","x":1}');

    expect((await prune()).removed.quarantine).toBe(1);
    expect(store.db.prepare('SELECT record_id FROM quarantine ORDER BY id').pluck().all()).toEqual([
      'o-2',
      null,
      'o-3',
    ]);
  });

  it('reduces Deleted and archived orders past retention, keeps live ones and those with work', async () => {
    order('o-live', 'v1', { status: 3 });
    order('o-deleted', 'v1', { status: -1, salesId: 'S-1' });
    order('o-archived', 'v1', { status: 7, archived: true });
    order('o-waiting', 'v1', { status: -1 });
    job('singleOrder:o-waiting', { resource: 'singleOrder', id: 'o-waiting', version: 'v1' });
    order('o-dead', 'v1', { status: -1 });
    dead('singleOrder:o-dead', { resource: 'singleOrder', id: 'o-dead', version: 'v1' });
    order('o-unacked', 'v1', { status: -1 });
    recordVersion(store, 'singleOrder', 'o-unacked', 'v1');
    markDelivered(store, 'singleOrder', 'o-unacked', 'v1');
    setAckState(store, 'singleOrder', 'o-unacked', 'v1', 'queued');
    job('singleOrder:o-unacked', { resource: 'singleOrder', id: 'o-unacked', version: 'v1' });
    temp.clock.advance(31 * DAY);
    order('o-recent', 'v1', { status: -1 });
    job('singleOrder:o-last');

    const report = await prune();

    expect(report.removed.endedRecords).toBe(2);
    const bodies = Object.fromEntries(
      store.db
        .prepare<[], { _id: string; json: string }>('SELECT _id, json FROM mirror')
        .all()
        .map((row) => [row._id, JSON.parse(row.json) as Record<string, unknown>]),
    );
    expect(bodies['o-deleted']).toEqual({
      _id: 'o-deleted',
      timestamp: 'v1',
      status: -1,
      salesId: 'S-1',
      patientId: 'p-1',
      _reduced: temp.clock.now().toISOString(),
    });
    expect(bodies['o-archived']).not.toHaveProperty('deliveryAddress');
    for (const kept of ['o-live', 'o-waiting', 'o-dead', 'o-unacked', 'o-recent']) {
      expect(bodies[kept]).toHaveProperty('deliveryAddress');
    }
    // Reduced once; a second pass finds nothing more.
    expect((await prune()).removed.endedRecords).toBe(0);
  });

  it('gives the freed pages back to the disk', async () => {
    expect(autoVacuumOf(store)).toBe('incremental');
    const big = 'x'.repeat(4000);
    for (let n = 0; n < 300; n += 1) order(`o-${n}`, 'v1', { status: -1, note: big });
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const before = fs.statSync(store.path).size;
    temp.clock.advance(31 * DAY);

    const report = await pruneStore(store, days, { batchSize: 100 });

    expect(report.removed.endedRecords).toBe(300);
    expect(report.freedPages).toBeGreaterThan(200);
    expect(fs.statSync(store.path).size).toBeLessThan(before / 2);
  });

  it('reduces an order once its acknowledgement was made, as the queue says', async () => {
    order('o-acked', 'v1', { status: 0 });
    recordVersion(store, 'singleOrder', 'o-acked', 'v1');
    markDelivered(store, 'singleOrder', 'o-acked', 'v1');
    setAckState(store, 'singleOrder', 'o-acked', 'v1', 'queued');
    const ack = { resource: 'singleOrder', id: 'o-acked', version: 'v1' };
    finished('singleOrder:o-acked', ack);
    order('o-acked', 'v2', { status: -1 });
    recordVersion(store, 'singleOrder', 'o-acked', 'v2');
    markDelivered(store, 'singleOrder', 'o-acked', 'v2');
    temp.clock.advance(31 * DAY);
    job('singleOrder:o-last');

    const report = await prune();

    expect(report.removed.endedRecords).toBe(1);
    expect(report.removed.versions).toBe(1);
    expect(store.db.prepare('SELECT version FROM ledger').pluck().all()).toEqual(['v2']);
  });

  it("keeps a reduced record's ledger rows, in their order, without their texts", async () => {
    order('o-1', 'v1', { status: 7 });
    recordVersion(store, 'singleOrder', 'o-1', 'v1');
    markDelivered(store, 'singleOrder', 'o-1', 'v1');
    order('o-1', 'v2', { status: 7, archived: true });
    recordVersion(store, 'singleOrder', 'o-1', 'v2', { changed: ['archived'] });
    markDelivered(store, 'singleOrder', 'o-1', 'v2');
    recordVersion(store, 'singleOrder', 'o-1#archived', 'v2', { json: '{"_id":"o-1"}' });
    markDelivered(store, 'singleOrder', 'o-1#archived', 'v2');
    order('o-2', 'v1', { status: 3 });
    recordVersion(store, 'singleOrder', 'o-2', 'v1');
    temp.clock.advance(31 * DAY);
    job('singleOrder:o-last');

    expect((await prune()).removed.endedRecords).toBe(1);

    const rows = store.db
      .prepare(
        'SELECT _id, version, delivered_at IS NOT NULL AS delivered, json, changed FROM ledger ORDER BY seq',
      )
      .all();
    expect(rows).toEqual([
      { _id: 'o-2', version: 'v1', delivered: 0, json: null, changed: null },
      { _id: 'o-1', version: 'v2', delivered: 1, json: null, changed: '["archived"]' },
      { _id: 'o-1#archived', version: 'v2', delivered: 1, json: null, changed: null },
    ]);
    expect(recordVersion(store, 'singleOrder', 'o-1', 'v2')).toBe(false);
  });

  it('frees the pages of reduced records that lay between live ones', async () => {
    const body = 'x'.repeat(900);
    for (let n = 0; n < 600; n += 1) {
      order(`o-${n}`, 'v1', { status: n % 4 === 0 ? 3 : -1, note: body });
    }
    store.db.pragma('wal_checkpoint(TRUNCATE)');
    const pages = () => store.db.pragma('page_count', { simple: true }) as number;
    const before = pages();
    temp.clock.advance(31 * DAY);

    expect((await pruneStore(store, days, { batchSize: 100 })).removed.endedRecords).toBe(450);

    // 150 live bodies of ~1 KB stay: about half the pages (indexes beside), not all of them.
    expect(pages()).toBeLessThan(before * 0.6);
  });

  it('stops between two batches when asked, and the next pass goes on', async () => {
    for (let n = 0; n < 5; n += 1) finished(`singleOrder:o-${n}`);
    job('singleOrder:o-last');
    temp.clock.advance(31 * DAY);
    let batches = 0;
    const first = await pruneStore(store, days, { batchSize: 2, stopping: () => batches++ >= 1 });
    expect(first).toMatchObject({ stopped: true, removed: { jobs: 2 } });
    const second = await prune();
    expect(second).toMatchObject({ stopped: false, removed: { jobs: 3 } });
  });
});
