import { setImmediate as nextTurn } from 'node:timers/promises';
import { versionParts } from '../../contract/index.js';
import { reducedRecord } from '../../store/reducedRecord.js';
import {
  moveRetentionCursor,
  noteForgotten,
  retentionCursor,
} from '../../store/retentionCursors.js';
import { autoVacuumOf, checkpointWal, freePages } from '../../store/space.js';
import { plainStatement, statement } from '../../store/statements.js';
import { storedNow, type Store } from '../../store/store.js';
import { transaction } from '../../store/transaction.js';

/**
 * Retention: finished work older than its days goes, in short batches beside the daemon's work.
 * What is unresolved never goes, whatever its age: pending, running and dead jobs with an open
 * dead letter (and the versions, messages and records they refer to), versions not yet handed
 * to the ERP or not yet acknowledged, messages not yet handled. What dedupe needs stays: the
 * newest ledger row of every record (its version and hash), every ERP message's key and hash.
 */

/** Days each kind of finished work is kept (`retention` in the config). */
export interface RetentionDays {
  jobs: number;
  runs: number;
  versions: number;
  inboxMessages: number;
  ownWrites: number;
  quarantine: number;
  endedRecords: number;
  endedKeys: number;
}

export type RetentionRule = keyof RetentionDays;

export interface PruneOptions {
  /** Rows one write transaction removes at most. */
  batchSize: number;
  /**
   * How long one write transaction should hold the database and the event loop, in ms: the
   * batch shrinks below `batchSize` when a batch takes longer, so work arriving meanwhile (a
   * pull's commit, a job's outcome) waits at most about this long. Measured, not clocked:
   * it sizes batches, it decides nothing about what is removed.
   */
  batchMs?: number;
  /** Whether to stop between two batches (the daemon is stopping). */
  stopping?: () => boolean;
}

export interface PruneReport {
  /** Rows removed (jobs, runs, versions, quarantine, own writes) or reduced (bodies), per rule. */
  removed: Record<RetentionRule, number>;
  /** Pages given back to the disk afterwards (incremental vacuum). */
  freedPages: number;
  /** True when it stopped before it was through (see `stopping`); the next pass goes on. */
  stopped: boolean;
}

/** One batch: what it removed, and whether there may be more. */
interface Step {
  removed: number;
  more: boolean;
}

/** Removes up to `limit` rows in the caller's transaction. */
type Stepper = (limit: number) => Step;

const DAY_MS = 86_400_000;

/** Pages one incremental-vacuum transaction gives back: 4 MiB of 4 KiB pages, a few ms. */
const VACUUM_PAGES = 1024;

/**
 * Where retention reduces a record's body: orders and care arrangements (patients, articles and
 * master data stay whole, enrichment reads them), once Deleted (an end status; no transition
 * leaves it) or archived. The migration's partial index `mirror_ended` holds exactly the rows
 * of ENDED_RECORD_SQL (these, not yet reduced), so its text must stay the same as there.
 */
const ENDED_SQL = `resource IN ('singleOrder', 'directOrder', 'integratedCare', 'erpOrder')
    AND (json ->> '$.archived' = 1
      OR (resource IN ('singleOrder', 'directOrder') AND json ->> '$.status' = -1))`;

export const ENDED_RECORD_SQL = `${ENDED_SQL}
    AND json ->> '$._reduced' IS NULL`;

/**
 * Whether the record has work not yet gone: a job pending, running or dead (a dead one may be
 * retried; a dropped one goes with `jobs` past retention, and the mirror's trigger would copy
 * the body into the ledger for it, so it holds the reduction back until then), its
 * acknowledgement among them, or a version not yet handed to the ERP. The queue is what says
 * whether an acknowledgement is still to be made: the ledger notes only that one was queued.
 */
const OPEN_WORK_SQL = (resource: string, id: string) => `
  EXISTS (SELECT 1 FROM queue INDEXED BY queue_entity WHERE entity_key = ${resource} || ':' || ${id}
    AND state IN ('pending', 'running', 'dead'))
  OR EXISTS (SELECT 1 FROM ledger WHERE ledger.resource = ${resource} AND ledger._id = ${id}
    AND delivered_at IS NULL)`;

const idList = (ids: readonly number[]) => ({ ids: JSON.stringify(ids) });
const IN_IDS = 'IN (SELECT value FROM json_each(@ids))';

/**
 * Finished jobs: done, superseded, and dead ones an operator dropped (every dead letter
 * resolved), with their dead letters, once they ended (or were dropped) before the cutoff. The
 * newest job stays whatever it is: ids are not AUTOINCREMENT, and a deleted highest id would be
 * given out again, so a job id in an old log line or trace could name a new job.
 */
function jobs(store: Store, cutoff: string): Stepper {
  return (limit) => {
    const ids = statement<{ cutoff: string; limit: number }, { id: number }>(
      store.db,
      `SELECT id FROM (
         SELECT id, updated_at AS ended_at FROM queue INDEXED BY queue_finished
         WHERE state IN ('done', 'superseded') AND updated_at < @cutoff
         UNION ALL
         SELECT id, (SELECT max(resolved_at) FROM dead_letters WHERE job_id = queue.id) AS ended_at
         FROM queue INDEXED BY queue_state WHERE state = 'dead'
           AND NOT EXISTS (SELECT 1 FROM dead_letters
             WHERE dead_letters.job_id = queue.id AND resolved_at IS NULL))
       WHERE ended_at < @cutoff AND id < (SELECT max(id) FROM queue)
       ORDER BY ended_at LIMIT @limit`,
    )
      .all({ cutoff, limit })
      .map((row) => row.id);
    if (ids.length === 0) return { removed: 0, more: false };
    // "Superseded by job N" is a note; a superseding job may go before the one it replaced.
    statement<{ ids: string }>(
      store.db,
      `UPDATE queue SET superseded_by = NULL WHERE superseded_by ${IN_IDS} AND id NOT ${IN_IDS}`,
    ).run(idList(ids));
    statement<{ ids: string }>(store.db, `DELETE FROM dead_letters WHERE job_id ${IN_IDS}`).run(
      idList(ids),
    );
    statement<{ ids: string }>(store.db, `DELETE FROM queue WHERE id ${IN_IDS}`).run(idList(ids));
    return { removed: ids.length, more: ids.length === limit };
  };
}

/** A row of walkById(): when the item came, and whether it may go once that is past retention. */
interface WalkedRow {
  id: number;
  madeAt: string;
  /** SQLite's boolean. */
  removable: number;
}

/**
 * A table walked by id, oldest first (ids follow time), once per pass from where the last batch
 * stopped: `select` reads a batch of WalkedRows after `@after` (with `@cutoff`, `@limit`), and
 * of those made before the cutoff the removable ones go, after `unlink` has cleared what refers
 * to them. The walk ends at the first row made since the cutoff.
 */
function walkById(
  store: Store,
  cutoff: string,
  { table, select, unlink }: { table: string; select: string; unlink?: (ids: number[]) => void },
): Stepper {
  let after = 0;
  return (limit) => {
    const rows = statement<{ after: number; cutoff: string; limit: number }, WalkedRow>(
      store.db,
      select,
    ).all({ after, cutoff, limit });
    const old = rows.filter((row) => row.madeAt < cutoff);
    const ids = old.filter((row) => row.removable === 1).map((row) => row.id);
    if (ids.length > 0) {
      unlink?.(ids);
      statement<{ ids: string }>(store.db, `DELETE FROM ${table} WHERE id ${IN_IDS}`).run(
        idList(ids),
      );
    }
    after = old.at(-1)?.id ?? after;
    return { removed: ids.length, more: old.length === rows.length && rows.length === limit };
  };
}

/**
 * Pull runs, ended before the cutoff. The latest run of each list stays (`status` shows it),
 * and the last successful pull of each resource (/readyz measures from it), however old.
 */
function runs(store: Store, cutoff: string): Stepper {
  return walkById(store, cutoff, {
    table: 'runs',
    select: `SELECT id, started_at AS madeAt, coalesce(finished_at, started_at) < @cutoff
         AND NOT (NOT EXISTS (SELECT 1 FROM runs AS later INDEXED BY runs_latest
             WHERE later.resource = runs.resource AND later.filter = runs.filter
               AND later.id > runs.id)
           OR (ok = 1 AND kind = 'pull' AND finished_at = (SELECT max(finished_at) FROM runs AS s
             WHERE s.resource = runs.resource AND s.ok = 1 AND s.kind = 'pull'))) AS removable
       FROM runs WHERE id > @after ORDER BY id LIMIT @limit`,
    // The versions and quarantined records a run saw keep their rows, without the link.
    unlink: (ids) => {
      for (const table of ['ledger', 'quarantine']) {
        statement<{ ids: string }>(
          store.db,
          `UPDATE ${table} SET run_id = NULL WHERE run_id ${IN_IDS}`,
        ).run(idList(ids));
      }
    },
  });
}

interface LedgerRow {
  seq: number;
  resource: string;
  _id: string;
  seen_at: string;
}

/**
 * Older versions in the ledger. The ledger is walked once in the order versions were seen (a
 * cursor keeps where it stopped); each version passed removes the settled versions of its record
 * seen before it. So a record's newest version always stays (how a repeat is recognised), and
 * an older one goes once the version after it is past retention too. A version stays while it
 * waits for the ERP, or a job still refers to it (its acknowledgement, a redelivery).
 */
function versions(store: Store, cutoff: string): Stepper {
  return (limit) => {
    const from = retentionCursor(store, 'ledger');
    const rows = statement<{ from: number; limit: number }, LedgerRow>(
      store.db,
      'SELECT seq, resource, _id, seen_at FROM ledger WHERE seq > @from ORDER BY seq LIMIT @limit',
    ).all({ from, limit });
    const older = statement<Record<string, string | number>>(
      store.db,
      `DELETE FROM ledger WHERE resource = @resource AND _id = @id AND seq < @seq
         AND delivered_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM queue INDEXED BY queue_entity
           WHERE entity_key = @resource || ':' || @id AND state IN ('pending', 'running', 'dead')
             AND payload ->> '$.version' = ledger.version)`,
    );
    let removed = 0;
    let passed = from;
    for (const row of rows) {
      if (row.seen_at >= cutoff) break;
      removed += older.run({ resource: row.resource, id: row._id, seq: row.seq }).changes;
      passed = row.seq;
    }
    if (passed !== from) moveRetentionCursor(store, 'ledger', passed);
    const through = rows.length === 0 || passed !== rows.at(-1)?.seq;
    return { removed, more: !through && rows.length === limit };
  };
}

/** Bodies of the ERP's handled messages; each keeps its key and hash (a repeat is recognised). */
function inboxMessages(store: Store, cutoff: string): Stepper {
  return (limit) => {
    const changed = statement<{ cutoff: string; limit: number }>(
      store.db,
      `UPDATE inbox_messages SET body = '' WHERE id IN (
         SELECT id FROM inbox_messages INDEXED BY inbox_messages_bodies
         WHERE body <> '' AND processed_at < @cutoff AND state IN ('done', 'rejected')
         ORDER BY processed_at LIMIT @limit)`,
    ).run({ cutoff, limit }).changes;
    return { removed: changed, more: changed === limit };
  };
}

/**
 * Fingerprints of our writes: their echo comes with the next pull; one older than retention
 * would only be met again after a pull paused that long, which then hands it to the ERP once.
 */
function ownWrites(store: Store, cutoff: string): Stepper {
  return (limit) => {
    const changed = statement<{ cutoff: string; limit: number }>(
      store.db,
      `DELETE FROM own_writes WHERE rowid IN (
         SELECT rowid FROM own_writes INDEXED BY own_writes_written
         WHERE written_at < @cutoff ORDER BY written_at LIMIT @limit)`,
    ).run({ cutoff, limit }).changes;
    return { removed: changed, more: changed === limit };
  };
}

/**
 * Quarantined records resolved since: the mirror holds a version of the record stored after the
 * entry. One without an `_id` never resolves and stays (`forget` or an operator removes it).
 */
function quarantine(store: Store, cutoff: string): Stepper {
  return walkById(store, cutoff, {
    table: 'quarantine',
    select: `SELECT id, seen_at AS madeAt, record_id IS NOT NULL AND EXISTS (SELECT 1 FROM mirror
           WHERE mirror.resource = quarantine.resource AND mirror._id = quarantine.record_id
             AND mirror.updated_at > quarantine.seen_at)
           -- The highest id stays, as with jobs: it would be given out again.
           AND id < (SELECT max(id) FROM quarantine) AS removable
       FROM quarantine WHERE id > @after ORDER BY id LIMIT @limit`,
  });
}

/**
 * Ended orders and care arrangements: the mirror keeps their row (version, ERP keys, the fields
 * of REDUCED_RECORD_FIELDS), not their body. A live record keeps its body however old (the
 * transition check and the comparison with our own writes read it), as does one with
 * unresolved work. A newer version pulled later is stored whole again.
 *
 * The reduced row, and the record's ledger rows (its newest version, its archival event, their
 * texts dropped: no work is left to hand them over again; the names of what each changed
 * kept), are written anew at their table's end instead of updated in place: tables grow at the
 * end, so a row shrunk in place would leave its page mostly empty for good, while rows moved
 * away empty whole pages, which the incremental vacuum gives back. Order among a record's
 * ledger rows is kept (trace reads it).
 */
interface EndedRow {
  rowid: number;
  resource: string;
  _id: string;
  json: string;
}

function endedRecords(store: Store, cutoff: string): Stepper {
  return (limit) => {
    const rows = statement<{ cutoff: string; limit: number }, EndedRow>(
      store.db,
      `SELECT rowid, resource, _id, json FROM mirror INDEXED BY mirror_ended
       WHERE ${ENDED_RECORD_SQL} AND updated_at < @cutoff
         AND NOT (${OPEN_WORK_SQL('mirror.resource', 'mirror._id')})
       ORDER BY updated_at LIMIT @limit`,
    ).all({ cutoff, limit });
    const now = storedNow(store);
    const reduce = statement<{ rowid: number; json: string }>(
      store.db,
      `INSERT OR REPLACE INTO mirror (resource, _id, version, customer_id, customer_number,
         sales_id, serial_number, json, updated_at)
       SELECT resource, _id, version, customer_id, customer_number, sales_id, serial_number,
         @json, updated_at
       FROM mirror WHERE rowid = @rowid`,
    );
    const compactLedger = statement<{ resource: string; id: string; archived: string }>(
      store.db,
      `INSERT OR REPLACE INTO ledger (resource, _id, version, run_id, seen_at, delivered_at,
         ack_state, sha256, changed)
       SELECT resource, _id, version, run_id, seen_at, delivered_at, ack_state, sha256, changed
       FROM ledger WHERE resource = @resource AND _id IN (@id, @archived) ORDER BY seq`,
    );
    for (const row of rows) {
      reduce.run({ rowid: row.rowid, json: reducedRecord(row.json, now) });
      compactLedger.run({ resource: row.resource, id: row._id, archived: `${row._id}#archived` });
    }
    return { removed: rows.length, more: rows.length === limit };
  };
}

/**
 * What dedupe kept of ended records and handled ERP messages, once even that is old: a reduced
 * record whose ending version was stored before the cutoff goes with its ledger rows (its
 * version and archival event), a handled message's key and hash go. A record ended that long
 * could only be listed again by a reconciliation or a checkpoint reset; the newest stamp let go
 * is noted per resource (`forgottenThrough`), so the pull takes such a listing as known instead
 * of handing it to the ERP again. A message sent again after that long is handled again; its
 * writes find the platform already holding them. The last message of each entity stays: a
 * message with an older ERP stamp is measured against it (store/inbox.ts). The highest message
 * id stays (ids are given out again otherwise).
 */
function endedKeys(store: Store, cutoff: string): Stepper {
  return (limit) => {
    const records = statement<{ cutoff: string; limit: number }, KeyRow>(
      store.db,
      `SELECT rowid, resource, _id, version FROM mirror INDEXED BY mirror_reduced
       WHERE json ->> '$._reduced' IS NOT NULL AND updated_at < @cutoff AND ${ENDED_SQL}
       ORDER BY updated_at LIMIT @limit`,
    ).all({ cutoff, limit });
    for (const row of records) forgetEnded(store, row);
    const messages = statement<{ cutoff: string; limit: number }>(
      store.db,
      `DELETE FROM inbox_messages WHERE id IN (
         SELECT id FROM inbox_messages AS m INDEXED BY inbox_messages_keys
         WHERE body = '' AND processed_at < @cutoff AND state IN ('done', 'rejected')
           AND id < (SELECT max(id) FROM inbox_messages)
           AND (entity IS NULL OR state = 'rejected' OR EXISTS (
             SELECT 1 FROM inbox_messages AS n INDEXED BY inbox_messages_entity
             WHERE n.entity = m.entity AND n.kind = m.kind AND n.id > m.id AND n.state = 'done'))
         ORDER BY processed_at LIMIT @limit)`,
    ).run({ cutoff, limit }).changes;
    const removed = records.length + messages;
    return { removed, more: records.length === limit || messages === limit };
  };
}

interface KeyRow {
  rowid: number;
  resource: string;
  _id: string;
  version: string;
}

function forgetEnded(store: Store, row: KeyRow): void {
  statement<{ resource: string; id: string; archived: string }>(
    store.db,
    'DELETE FROM ledger WHERE resource = @resource AND _id IN (@id, @archived)',
  ).run({ resource: row.resource, id: row._id, archived: `${row._id}#archived` });
  statement<{ rowid: number }>(store.db, 'DELETE FROM mirror WHERE rowid = @rowid').run({
    rowid: row.rowid,
  });
  const stamp = Date.parse(versionParts(row.version).stamp);
  if (!Number.isNaN(stamp)) noteForgotten(store, row.resource, stamp);
}

const RULES: Record<RetentionRule, (store: Store, cutoff: string) => Stepper> = {
  jobs,
  runs,
  versions,
  inboxMessages,
  ownWrites,
  quarantine,
  endedRecords,
  endedKeys,
};

/** A pruning transaction's aim: short enough that a pull's commit waiting behind it is not slowed. */
const DEFAULT_BATCH_MS = 4;
/** The fewest rows a batch takes, so a slow disk still makes progress. */
const MIN_BATCH = 10;

/**
 * Sizes pruning batches by how long the last one took: halved when it took longer than
 * `targetMs`, grown by a quarter (up to `most`) when it took less than half of it.
 */
export function batchSizer(most: number, targetMs: number, now = () => performance.now()) {
  let limit = Math.min(most, 100);
  return {
    limit: () => limit,
    measure<T>(batch: () => T): T {
      const started = now();
      const result = batch();
      const took = now() - started;
      if (took > targetMs) limit = Math.max(Math.min(MIN_BATCH, most), Math.floor(limit / 2));
      else if (took < targetMs / 2) limit = Math.min(most, Math.ceil(limit * 1.25));
      return result;
    },
  };
}

/** The time before which `days` days' items are past retention, as stored. */
export function cutoffOf(store: Store, days: number): string {
  return new Date(store.clock.now().getTime() - days * DAY_MS).toISOString();
}

/**
 * One pass of retention over the database: each rule in batches of `batchSize` rows, each batch
 * its own short write transaction (a crash loses at most the batch under way, which the next
 * pass does again), the event loop free between two batches; then the pages set free go back to
 * the disk (incremental vacuum, in steps too) and the WAL is checkpointed.
 */
export async function pruneStore(
  store: Store,
  days: RetentionDays,
  options: PruneOptions,
): Promise<PruneReport> {
  const stopping = options.stopping ?? (() => false);
  const removed = Object.fromEntries(Object.keys(RULES).map((rule) => [rule, 0])) as Record<
    RetentionRule,
    number
  >;
  const size = batchSizer(options.batchSize, options.batchMs ?? DEFAULT_BATCH_MS);
  for (const [rule, make] of Object.entries(RULES) as [RetentionRule, typeof jobs][]) {
    const step = make(store, cutoffOf(store, days[rule]));
    for (;;) {
      if (stopping()) return { removed, freedPages: 0, stopped: true };
      const done = size.measure(() => transaction(store, () => step(size.limit())));
      removed[rule] += done.removed;
      if (!done.more) break;
      await nextTurn();
    }
  }
  const freedPages = await giveBackPages(store, stopping);
  checkpointWal(store);
  return { removed, freedPages, stopped: stopping() };
}

/**
 * The incremental vacuum after pruning, VACUUM_PAGES per short transaction. A file made before
 * incremental auto-vacuum keeps its free pages for its next rows instead (it stops growing but
 * does not shrink) until one VACUUM switches it (space.ts `compact`).
 */
async function giveBackPages(store: Store, stopping: () => boolean): Promise<number> {
  if (autoVacuumOf(store) !== 'incremental') return 0;
  let freed = 0;
  let free = freeCount(store);
  while (free > 0 && !stopping()) {
    const left = freePages(store, VACUUM_PAGES);
    if (left >= free) break;
    freed += free - left;
    free = left;
    await nextTurn();
  }
  return freed;
}

function freeCount(store: Store): number {
  return (
    plainStatement<{ n: number }>(
      store.db,
      'SELECT freelist_count AS n FROM pragma_freelist_count',
    ).get()?.n ?? 0
  );
}
