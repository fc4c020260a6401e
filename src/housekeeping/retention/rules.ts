import type { RetentionConfig } from '../../config/retentionSchema.js';
import { versionParts } from '../../contract/index.js';
import { reducedRecord } from '../../store/reducedRecord.js';
import { noteForgotten } from '../../store/retentionCursors.js';
import { statement } from '../../store/statements.js';
import { storedNow, type Store } from '../../store/store.js';

/**
 * Retention's policy as a table: per rule of the config (`retention.<rule>` days), which rows of
 * which table are past it, oldest first, and what is done to them. prune.ts runs every line the
 * same way (one stepper, short batches). What is unresolved never goes, whatever its age:
 * pending, running and dead jobs with an open dead letter (and the versions, messages and
 * records they refer to), versions not yet handed to the ERP or not yet acknowledged, messages
 * not yet handled. What dedupe needs stays: the newest ledger row of every record (its version
 * and hash), every ERP message's key and hash.
 */

export type RetentionRule =
  | 'jobs'
  | 'runs'
  | 'versions'
  | 'inboxMessages'
  | 'ownWrites'
  | 'quarantine'
  | 'endedRecords'
  | 'endedKeys';

/** Days each kind of finished work is kept (`retention` in the config). */
export type RetentionDays = Pick<RetentionConfig, RetentionRule>;

/** A row a sweep selects: its `id` (a walk's position), and what its `each` reads. */
export interface SweptRow {
  id: number;
  /** A walk's: when the item came; the walk ends at the first made since the cutoff. */
  madeAt?: string;
  /** A walk's: whether the item may go once it is past retention (SQLite's boolean). */
  removable?: number | null;
}

/** A sweep's row that names a record (the select's text fixes which fields it has). */
interface RecordRow extends SweptRow {
  resource: string;
  _id: string;
}

/** One line of the policy. */
export interface Sweep {
  /** The config's rule whose days make `@cutoff`, and under which what it removes is counted. */
  rule: RetentionRule;
  /** Reads a batch of up to `@limit` rows past `@cutoff`, oldest first (a walk's after `@after`). */
  select: string;
  /** Run over the ids selected (`@ids`, a JSON array), in order: what refers to them, then them. */
  then?: readonly string[];
  /**
   * Or done to each row selected in turn; answers how many rows it removed or reduced. A method,
   * so that each sweep's `each` takes the row its own select reads.
   */
  each?(store: Store, row: SweptRow): number;
  /**
   * A walk by id: each batch goes on where the last one stopped, from the start at each pass
   * (`pass`: items not removable yet are met again), or from where the last pass stopped (the
   * name of its cursor in `retention_cursors`: each item is dealt with once).
   */
  walk?: 'pass' | { cursor: string };
}

/** SQL for the ids of a `then` statement. */
const IN_IDS = 'IN (SELECT value FROM json_each(@ids))';

/**
 * Where retention reduces a record's body: orders and care arrangements (patients, articles and
 * master data stay whole, enrichment reads them), once Deleted (an end status; no transition
 * leaves it) or archived. The migration's partial index `mirror_ended` holds exactly the rows
 * of ENDED_RECORD_SQL (these, not yet reduced), so its text must stay the same as there.
 */
const ENDED_SQL = `resource IN ('singleOrder', 'directOrder', 'integratedCare', 'erpOrder')
    AND (json ->> '$.archived' = 1
      OR (resource IN ('singleOrder', 'directOrder') AND json ->> '$.status' = -1))`;

const ENDED_RECORD_SQL = `${ENDED_SQL}
    AND json ->> '$._reduced' IS NULL`;

/**
 * Whether the record has work not yet gone: a job pending, running or dead (a dead one may be
 * retried; a dropped one goes with `jobs` past retention, and the mirror's trigger would copy
 * the body into the ledger for it, so it holds the reduction back until then), its
 * acknowledgement among them, or a version not yet handed to the ERP. The queue is what says
 * whether an acknowledgement is still to be made: the ledger notes only that one was queued.
 */
const OPEN_WORK_SQL = `
  EXISTS (SELECT 1 FROM queue INDEXED BY queue_entity
    WHERE entity_key = mirror.resource || ':' || mirror._id
      AND state IN ('pending', 'running', 'dead'))
  OR EXISTS (SELECT 1 FROM ledger WHERE ledger.resource = mirror.resource
    AND ledger._id = mirror._id AND delivered_at IS NULL)`;

/**
 * Older versions of the record `row` names, seen before it: settled ones go, unless a job still
 * refers to one (its acknowledgement, a redelivery).
 */
function olderVersions(store: Store, row: RecordRow): number {
  return statement<{ resource: string; id: string; seq: number }>(
    store.db,
    `DELETE FROM ledger WHERE resource = @resource AND _id = @id AND seq < @seq
       AND delivered_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM queue INDEXED BY queue_entity
         WHERE entity_key = @resource || ':' || @id AND state IN ('pending', 'running', 'dead')
           AND payload ->> '$.version' = ledger.version)`,
  ).run({ resource: row.resource, id: row._id, seq: row.id }).changes;
}

/**
 * Reduces an ended record (REDUCED_RECORD_FIELDS stay), and drops the texts of its ledger rows
 * (its newest version, its archival event: no work is left to hand them over again; the names
 * of what each changed stay). Both are written anew at their table's end instead of updated in
 * place: tables grow at the end, so a row shrunk in place would leave its page mostly empty for
 * good, while rows moved away empty whole pages, which the incremental vacuum gives back. Order
 * among a record's ledger rows is kept (trace reads it).
 */
function reduceEnded(store: Store, row: RecordRow & { json: string }): number {
  statement<{ rowid: number; json: string }>(
    store.db,
    `INSERT OR REPLACE INTO mirror (resource, _id, version, customer_id, customer_number,
       sales_id, serial_number, json, updated_at)
     SELECT resource, _id, version, customer_id, customer_number, sales_id, serial_number,
       @json, updated_at
     FROM mirror WHERE rowid = @rowid`,
  ).run({ rowid: row.id, json: reducedRecord(row.json, storedNow(store)) });
  statement<{ resource: string; id: string; archived: string }>(
    store.db,
    `INSERT OR REPLACE INTO ledger (resource, _id, version, run_id, seen_at, delivered_at,
       ack_state, sha256, changed)
     SELECT resource, _id, version, run_id, seen_at, delivered_at, ack_state, sha256, changed
     FROM ledger WHERE resource = @resource AND _id IN (@id, @archived) ORDER BY seq`,
  ).run({ resource: row.resource, id: row._id, archived: `${row._id}#archived` });
  return 1;
}

/**
 * Lets a reduced record go with its ledger rows (its version and archival event), noting the
 * newest stamp let go per resource (`forgottenThrough`), so the pull takes such a listing as
 * known instead of handing it to the ERP again.
 */
function forgetEnded(store: Store, row: RecordRow & { version: string }): number {
  const { resource, _id: id } = row;
  statement<{ resource: string; id: string; archived: string }>(
    store.db,
    'DELETE FROM ledger WHERE resource = @resource AND _id IN (@id, @archived)',
  ).run({ resource, id, archived: `${id}#archived` });
  statement<{ rowid: number }>(store.db, 'DELETE FROM mirror WHERE rowid = @rowid').run({
    rowid: row.id,
  });
  const stamp = Date.parse(versionParts(row.version).stamp);
  if (!Number.isNaN(stamp)) noteForgotten(store, resource, stamp);
  return 1;
}

/** The policy, line by line, in the order a pass runs it. */
export const SWEEPS: readonly Sweep[] = [
  /**
   * Finished jobs: done, superseded, and dead ones an operator dropped (every dead letter
   * resolved), with their dead letters, once they ended (or were dropped) before the cutoff.
   * The newest job stays whatever it is: ids are not AUTOINCREMENT, and a deleted highest id
   * would be given out again, so a job id in an old log line or trace could name a new job.
   */
  {
    rule: 'jobs',
    select: `SELECT id FROM (
         SELECT id, updated_at AS ended_at FROM queue INDEXED BY queue_finished
         WHERE state IN ('done', 'superseded') AND updated_at < @cutoff
         UNION ALL
         SELECT id, (SELECT max(resolved_at) FROM dead_letters WHERE job_id = queue.id) AS ended_at
         FROM queue INDEXED BY queue_state WHERE state = 'dead'
           AND NOT EXISTS (SELECT 1 FROM dead_letters
             WHERE dead_letters.job_id = queue.id AND resolved_at IS NULL))
       WHERE ended_at < @cutoff AND id < (SELECT max(id) FROM queue)
       ORDER BY ended_at LIMIT @limit`,
    then: [
      // "Superseded by job N" is a note; a superseding job may go before the one it replaced.
      `UPDATE queue SET superseded_by = NULL WHERE superseded_by ${IN_IDS} AND id NOT ${IN_IDS}`,
      `DELETE FROM dead_letters WHERE job_id ${IN_IDS}`,
      `DELETE FROM queue WHERE id ${IN_IDS}`,
    ],
  },
  /**
   * Pull runs, ended before the cutoff. The latest run of each list stays (`status` shows it),
   * and the last successful pull of each resource (/readyz measures from it), however old. The
   * versions and quarantined records a run saw keep their rows, without the link.
   */
  {
    rule: 'runs',
    walk: 'pass',
    select: `SELECT id, started_at AS madeAt, coalesce(finished_at, started_at) < @cutoff
         AND NOT (NOT EXISTS (SELECT 1 FROM runs AS later INDEXED BY runs_latest
             WHERE later.resource = runs.resource AND later.filter = runs.filter
               AND later.id > runs.id)
           OR (ok = 1 AND kind = 'pull' AND finished_at = (SELECT max(finished_at) FROM runs AS s
             WHERE s.resource = runs.resource AND s.ok = 1 AND s.kind = 'pull'))) AS removable
       FROM runs WHERE id > @after ORDER BY id LIMIT @limit`,
    then: [
      `UPDATE ledger SET run_id = NULL WHERE run_id ${IN_IDS}`,
      `UPDATE quarantine SET run_id = NULL WHERE run_id ${IN_IDS}`,
      `DELETE FROM runs WHERE id ${IN_IDS}`,
    ],
  },
  /**
   * Older versions in the ledger. The ledger is walked once in the order versions were seen;
   * each version passed removes the settled versions of its record seen before it. So a
   * record's newest version always stays (how a repeat is recognised), and an older one goes
   * once the version after it is past retention too.
   */
  {
    rule: 'versions',
    walk: { cursor: 'ledger' },
    select: `SELECT seq AS id, seen_at AS madeAt, resource, _id FROM ledger
       WHERE seq > @after ORDER BY seq LIMIT @limit`,
    each: olderVersions,
  },
  /** Bodies of the ERP's handled messages; each keeps its key and hash (a repeat is recognised). */
  {
    rule: 'inboxMessages',
    select: `SELECT id FROM inbox_messages INDEXED BY inbox_messages_bodies
       WHERE body <> '' AND processed_at < @cutoff AND state IN ('done', 'rejected')
       ORDER BY processed_at LIMIT @limit`,
    then: [`UPDATE inbox_messages SET body = '' WHERE id ${IN_IDS}`],
  },
  /**
   * Fingerprints of our writes: their echo comes with the next pull; one older than retention
   * would only be met again after a pull paused that long, which then hands it to the ERP once.
   */
  {
    rule: 'ownWrites',
    select: `SELECT rowid AS id FROM own_writes INDEXED BY own_writes_written
       WHERE written_at < @cutoff ORDER BY written_at LIMIT @limit`,
    then: [`DELETE FROM own_writes WHERE rowid ${IN_IDS}`],
  },
  /**
   * Quarantined records resolved since: the mirror holds a version of the record stored after
   * the entry. One without an `_id` never resolves and stays (`forget` or an operator removes
   * it). The highest id stays, as with jobs: it would be given out again.
   */
  {
    rule: 'quarantine',
    walk: 'pass',
    select: `SELECT id, seen_at AS madeAt, record_id IS NOT NULL AND EXISTS (SELECT 1 FROM mirror
           WHERE mirror.resource = quarantine.resource AND mirror._id = quarantine.record_id
             AND mirror.updated_at > quarantine.seen_at)
           AND id < (SELECT max(id) FROM quarantine) AS removable
       FROM quarantine WHERE id > @after ORDER BY id LIMIT @limit`,
    then: [`DELETE FROM quarantine WHERE id ${IN_IDS}`],
  },
  /**
   * Ended orders and care arrangements: the mirror keeps their row (version, ERP keys, the
   * fields of REDUCED_RECORD_FIELDS), not their body. A live record keeps its body however old
   * (the transition check and the comparison with our own writes read it), as does one with
   * unresolved work. A newer version pulled later is stored whole again.
   */
  {
    rule: 'endedRecords',
    select: `SELECT rowid AS id, resource, _id, json FROM mirror INDEXED BY mirror_ended
       WHERE ${ENDED_RECORD_SQL} AND updated_at < @cutoff AND NOT (${OPEN_WORK_SQL})
       ORDER BY updated_at LIMIT @limit`,
    each: reduceEnded,
  },
  /**
   * What dedupe kept of ended records, once even that is old: a reduced record whose ending
   * version was stored before the cutoff. A record ended that long could only be listed again by
   * a reconciliation or a checkpoint reset, which forgottenThrough recognises.
   */
  {
    rule: 'endedKeys',
    select: `SELECT rowid AS id, resource, _id, version FROM mirror INDEXED BY mirror_reduced
       WHERE json ->> '$._reduced' IS NOT NULL AND updated_at < @cutoff AND ${ENDED_SQL}
       ORDER BY updated_at LIMIT @limit`,
    each: forgetEnded,
  },
  /**
   * What dedupe kept of handled ERP messages: a key and hash go. A message sent again after that
   * long is handled again; its writes find the platform already holding them. The last message
   * of each entity stays: a message with an older ERP stamp is measured against it
   * (store/inbox.ts). The highest message id stays (ids are given out again otherwise).
   */
  {
    rule: 'endedKeys',
    select: `SELECT id FROM inbox_messages AS m INDEXED BY inbox_messages_keys
       WHERE body = '' AND processed_at < @cutoff AND state IN ('done', 'rejected')
         AND id < (SELECT max(id) FROM inbox_messages)
         AND (entity IS NULL OR state = 'rejected' OR EXISTS (
           SELECT 1 FROM inbox_messages AS n INDEXED BY inbox_messages_entity
           WHERE n.entity = m.entity AND n.kind = m.kind AND n.id > m.id AND n.state = 'done'))
       ORDER BY processed_at LIMIT @limit`,
    then: [`DELETE FROM inbox_messages WHERE id ${IN_IDS}`],
  },
];
