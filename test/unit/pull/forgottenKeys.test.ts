import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqlitePullStore } from '../../../src/pull/pullStore.js';
import type { PulledRecord, PullStore } from '../../../src/pull/puller.js';
import {
  completeJob,
  claimJob,
  insertInboxMessage,
  listStoredJobs,
  settleInboxMessage,
  upsertMirror,
  type Store,
} from '../../../src/store/index.js';
import { pruneStore, type RetentionDays } from '../../../src/housekeeping/index.js';
import { forgottenThrough } from '../../../src/store/index.js';
import { tempStores, type TempStores, RETENTION_DAYS } from '../../support/store/tempStore.js';

const DAY = 86_400_000;
const days: RetentionDays = { ...RETENTION_DAYS, endedKeys: 60 };

let temp: TempStores;
let store: Store;
let pulls: PullStore;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
  pulls = sqlitePullStore(store, () => undefined);
});
afterEach(() => temp.cleanup());

function order(id: string, stamp: string, fields: Record<string, unknown>): PulledRecord {
  const record = { _id: id, timestamp: stamp, status: 3, patientId: 'p-1', ...fields };
  return { id, version: stamp, record, json: JSON.stringify(record) };
}

/** Commits one pull of these orders; answers how many were new. */
function pull(...records: PulledRecord[]): number {
  const at = temp.clock.now().toISOString();
  const target = { resource: 'singleOrder' as const, filter: '' };
  return pulls.commitBatch({ target, mode: 'incremental', startedAt: at }, records, []).fresh;
}

/** Hands every queued job over, as the ERP having them. */
function settleJobs(): void {
  for (const job of listStoredJobs(store, ['pending'], -1)) {
    claimJob(store, job.id, '2099-01-01T00:00:00.000Z');
    completeJob(store, job.id);
    if (job.kind === 'deliver.singleOrder') {
      store.db
        .prepare("UPDATE ledger SET delivered_at = 'x' WHERE _id = ? AND version = ?")
        .run(job.payload['id'], job.payload['version']);
    }
  }
}

const mirrored = (id: string): unknown =>
  store.db.prepare('SELECT _id FROM mirror WHERE _id = ?').pluck().get(id);
const ledgerRows = (id: string): unknown[] =>
  store.db.prepare("SELECT version FROM ledger WHERE _id IN (?, ? || '#archived')").all(id, id);

describe('retention.endedKeys', () => {
  it('lets the keys of an ended order go, and a listing of it again is not handed over', async () => {
    expect(pull(order('o-1', '2026-01-01T08:00:00.000Z', {}))).toBe(1);
    settleJobs();
    temp.clock.advance(DAY);
    const archived = order('o-1', '2026-01-02T08:00:00.000Z', { archived: true });
    expect(pull(archived)).toBe(1);
    expect(pull(order('o-live', '2026-01-02T09:00:00.000Z', {}))).toBe(1);
    settleJobs();

    temp.clock.advance(31 * DAY);
    await pruneStore(store, days, { batchSize: 100 });
    expect(mirrored('o-1')).toBe('o-1');
    expect(ledgerRows('o-1')).toHaveLength(2); // the archived version and its archival event

    temp.clock.advance(30 * DAY);
    const report = await pruneStore(store, days, { batchSize: 100 });

    expect(report.removed.endedKeys).toBe(1);
    expect(mirrored('o-1')).toBeUndefined();
    expect(ledgerRows('o-1')).toEqual([]);
    expect(mirrored('o-live')).toBe('o-live');
    expect(forgottenThrough(store, 'singleOrder')).toBe(Date.parse('2026-01-02T08:00:00.000Z'));

    const queued = listStoredJobs(store, ['pending'], -1).length;
    expect(pull(archived)).toBe(0);
    expect(listStoredJobs(store, ['pending'], -1)).toHaveLength(queued);
    // A later change on the platform is new, and goes to the ERP.
    expect(pull(order('o-1', '2026-03-05T08:00:00.000Z', { archived: true, note: 'x' }))).toBe(1);
  });

  it('keeps a live order whose body an erasure reduced, and an order ended later', async () => {
    expect(pull(order('o-2', '2026-01-01T08:00:00.000Z', { status: -1 }))).toBe(1);
    settleJobs();
    store.db
      .prepare("UPDATE mirror SET json = json_set(json, '$._reduced', 'x') WHERE _id = 'o-3'")
      .run();
    // A patient an erasure reduced, archived: master data, whose keys stay whatever its age.
    upsertMirror(store, 'patient', { _id: 'p-1', timestamp: 't1', archived: true }, 't1');
    store.db
      .prepare("UPDATE mirror SET json = json_set(json, '$._reduced', 'x') WHERE _id = 'p-1'")
      .run();
    temp.clock.advance(50 * DAY);
    expect(pull(order('o-3', '2026-02-20T08:00:00.000Z', { status: -1 }))).toBe(1);
    settleJobs();
    temp.clock.advance(31 * DAY);

    const report = await pruneStore(store, days, { batchSize: 100 });

    expect(report.removed.endedKeys).toBe(1);
    expect(mirrored('p-1')).toBe('p-1');
    expect(mirrored('o-2')).toBeUndefined();
    expect(mirrored('o-3')).toBe('o-3');
    // An order that never ended, listed with an old stamp, is new.
    expect(pull(order('o-4', '2025-12-01T08:00:00.000Z', {}))).toBe(1);
  });

  it("lets a handled ERP message's key go, keeping the newest and the last of each entity", async () => {
    const ids = [
      ['a.json', 'o-1'],
      ['b.json', 'o-2'],
      ['c.json', 'o-1'],
      ['d.json', 'o-3'],
    ].map(([name = '', order = '']) => {
      const id = insertInboxMessage(store, {
        kind: 'orderStatus',
        source: 'file',
        name,
        sha256: name,
        body: '{}',
        entity: `singleOrder:${order}`,
      }).id;
      settleInboxMessage(store, id, 'done');
      return id;
    });
    // A message kept before messages had an entity is measured against nothing.
    store.db.prepare('UPDATE inbox_messages SET entity = NULL WHERE id = ?').run(ids[1]);
    temp.clock.advance(61 * DAY);

    const report = await pruneStore(store, days, { batchSize: 100 });

    // o-1's last message stays: an older one sent again is measured against it (store/inbox.ts).
    expect(report.removed.endedKeys).toBe(2);
    expect(store.db.prepare('SELECT id FROM inbox_messages').pluck().all()).toEqual([
      ids[2],
      ids[3],
    ]);
  });

  it('must be longer than the bodies it stands for', async () => {
    const { retentionSchema } = await import('../../../src/config/retentionSchema.js');
    const result = retentionSchema.safeParse({ endedRecords: 40, endedKeys: 35 });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['endedKeys'] });
    expect(result.error?.issues[0]?.message).toContain('retention.endedRecords (40)');
  });
});
