import { plainStatement, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';
import { transaction } from './transaction.js';

/** The states of a queue job; `pending` and `running` hold later jobs of the same entity back. */
export type JobState = 'pending' | 'running' | 'done' | 'dead' | 'superseded';

/** A queue row as stored. `kind` is the text stored; the queue checks it against its kinds. */
export interface StoredJob {
  id: number;
  kind: string;
  entityKey: string;
  idempotencyKey: string | undefined;
  payload: Record<string, unknown>;
  state: JobState;
  /** Tries that failed so far. */
  attempts: number;
  nextAttemptAt: string;
  lastError: string | undefined;
  lastStatus: number | undefined;
  createdAt: string;
  updatedAt: string;
  supersededBy: number | undefined;
  leaseUntil: string | undefined;
}

interface JobRow {
  id: number;
  kind: string;
  entity_key: string;
  idempotency_key: string | null;
  payload: string;
  state: JobState;
  attempts: number;
  next_attempt_at: string;
  last_error: string | null;
  last_status: number | null;
  created_at: string;
  updated_at: string;
  superseded_by: number | null;
  lease_until: string | null;
}

const columns = `id, kind, entity_key, idempotency_key, payload, state, attempts, next_attempt_at,
  last_error, last_status, created_at, updated_at, superseded_by, lease_until`;

export interface JobToInsert {
  kind: string;
  entityKey: string;
  payload: Record<string, unknown>;
  idempotencyKey?: string | undefined;
  /** The job replaces the whole entity: older pending jobs of its kind and key are superseded. */
  supersedes: boolean;
}

export interface InsertedJob {
  id: number;
  /** False when a job with the same idempotency key exists; `id` is then that job's. */
  queued: boolean;
  /** Ids of the older pending jobs this one superseded. */
  superseded: number[];
}

/** Queues a job, ready at once. One transaction (a savepoint inside the caller's). */
export function insertJob(store: Store, job: JobToInsert): InsertedJob {
  return transaction(store, () => {
    const now = storedNow(store);
    const inserted = statement<Record<string, string | null>, { id: number }>(
      store.db,
      `INSERT INTO queue (kind, entity_key, idempotency_key, payload, next_attempt_at, created_at,
         updated_at)
       VALUES (@kind, @entityKey, @idempotencyKey, @payload, @now, @now, @now)
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
    ).get({
      kind: job.kind,
      entityKey: job.entityKey,
      idempotencyKey: job.idempotencyKey ?? null,
      payload: JSON.stringify(job.payload),
      now,
    });
    if (inserted === undefined) {
      const existing = statement<{ key: string }, { id: number }>(
        store.db,
        'SELECT id FROM queue WHERE idempotency_key = @key',
      ).get({ key: job.idempotencyKey ?? '' });
      if (existing === undefined)
        throw new Error(`queue: no job with idempotency key ${job.idempotencyKey}`);
      return { id: existing.id, queued: false, superseded: [] };
    }
    const superseded = job.supersedes ? supersedeOlder(store, inserted.id, job, now) : [];
    return { id: inserted.id, queued: true, superseded };
  });
}

function supersedeOlder(store: Store, id: number, job: JobToInsert, now: string): number[] {
  return statement<Record<string, string | number>, { id: number }>(
    store.db,
    `UPDATE queue SET state = 'superseded', superseded_by = @id, updated_at = @now
     WHERE kind = @kind AND entity_key = @entityKey AND state = 'pending' AND id < @id
     RETURNING id`,
  )
    .all({ id, kind: job.kind, entityKey: job.entityKey, now })
    .map((row) => row.id)
    .sort((a, b) => a - b);
}

/**
 * Ids of the jobs that may run at `now`, oldest first: pending, due, and first in line for their
 * entity (no older job of the same key is pending or running). So at most one per entity key.
 */
export function readyJobIds(store: Store, now: string): number[] {
  return statement<{ now: string }, { id: number }>(
    store.db,
    `SELECT id FROM queue AS job
     WHERE state = 'pending' AND next_attempt_at <= @now
       AND NOT EXISTS (SELECT 1 FROM queue AS earlier
         WHERE earlier.entity_key = job.entity_key AND earlier.id < job.id
           AND earlier.state IN ('pending', 'running'))
     ORDER BY id`,
  )
    .all({ now })
    .map((row) => row.id);
}

/** Compare-and-swap: the job becomes `running` only if it is still pending. Returns it if so. */
export function claimJob(store: Store, id: number, leaseUntil: string): StoredJob | undefined {
  const row = statement<Record<string, string | number>, JobRow>(
    store.db,
    `UPDATE queue SET state = 'running', lease_until = @leaseUntil, updated_at = @now
     WHERE id = @id AND state = 'pending' RETURNING ${columns}`,
  ).get({ id, leaseUntil, now: storedNow(store) });
  return row === undefined ? undefined : toStoredJob(row);
}

export function completeJob(store: Store, id: number): void {
  statement<Record<string, string | number>>(
    store.db,
    `UPDATE queue SET state = 'done', lease_until = NULL, updated_at = @now
     WHERE id = @id AND state = 'running'`,
  ).run({ id, now: storedNow(store) });
}

export interface JobFailure {
  attempts: number;
  error: string;
  status: number | undefined;
}

/** A running job failed and waits until `nextAttemptAt`. */
export function scheduleRetry(
  store: Store,
  id: number,
  failure: JobFailure,
  nextAttemptAt: string,
): void {
  statement<Record<string, string | number | null>>(
    store.db,
    `UPDATE queue SET state = 'pending', lease_until = NULL, attempts = @attempts,
       next_attempt_at = @nextAttemptAt, last_error = @error, last_status = @status,
       updated_at = @now
     WHERE id = @id AND state = 'running'`,
  ).run({ id, nextAttemptAt, ...failureParams(failure), now: storedNow(store) });
}

/** A running job failed for good; the caller adds its dead letter in the same transaction. */
export function markDead(store: Store, id: number, failure: JobFailure): boolean {
  return (
    statement<Record<string, string | number | null>>(
      store.db,
      `UPDATE queue SET state = 'dead', lease_until = NULL, attempts = @attempts,
         last_error = @error, last_status = @status, updated_at = @now
       WHERE id = @id AND state = 'running'`,
    ).run({ id, ...failureParams(failure), now: storedNow(store) }).changes === 1
  );
}

function failureParams(failure: JobFailure): Record<string, string | number | null> {
  return { attempts: failure.attempts, error: failure.error, status: failure.status ?? null };
}

/**
 * Puts `running` jobs not in `keep` back to pending, attempts unchanged (a crash is not a
 * failed try). Returns their ids.
 */
export function releaseRunning(store: Store, keep: ReadonlySet<number>): number[] {
  const running = plainStatement<{ id: number }>(
    store.db,
    "SELECT id FROM queue WHERE state = 'running' ORDER BY id",
  )
    .all()
    .map((row) => row.id)
    .filter((id) => !keep.has(id));
  const release = statement<Record<string, string | number>>(
    store.db,
    `UPDATE queue SET state = 'pending', lease_until = NULL, updated_at = @now
     WHERE id = @id AND state = 'running'`,
  );
  return transaction(store, () =>
    running.filter((id) => release.run({ id, now: storedNow(store) }).changes === 1),
  );
}

/** A dead job back to pending, due now, attempts reset. False when it is not dead. */
export function reviveJob(store: Store, id: number): boolean {
  const now = storedNow(store);
  return (
    statement<Record<string, string | number>>(
      store.db,
      `UPDATE queue SET state = 'pending', attempts = 0, next_attempt_at = @now, updated_at = @now
       WHERE id = @id AND state = 'dead'`,
    ).run({ id, now }).changes === 1
  );
}

export function getStoredJob(store: Store, id: number): StoredJob | undefined {
  const row = statement<{ id: number }, JobRow>(
    store.db,
    `SELECT ${columns} FROM queue WHERE id = @id`,
  ).get({ id });
  return row === undefined ? undefined : toStoredJob(row);
}

/** Jobs in the given states, oldest first; `limit` < 0 for all. */
export function listStoredJobs(store: Store, states: readonly JobState[], limit = -1): StoredJob[] {
  return statement<{ states: string; limit: number }, JobRow>(
    store.db,
    `SELECT ${columns} FROM queue WHERE state IN (SELECT value FROM json_each(@states))
     ORDER BY id LIMIT @limit`,
  )
    .all({ states: JSON.stringify(states), limit })
    .map(toStoredJob);
}

/** The newest job after `id` of the same kind and entity that was not itself superseded. */
export function newerJobId(store: Store, job: StoredJob): number | undefined {
  return statement<Record<string, string | number>, { id: number }>(
    store.db,
    `SELECT max(id) AS id FROM queue
     WHERE kind = @kind AND entity_key = @entityKey AND id > @id AND state <> 'superseded'
     HAVING max(id) IS NOT NULL`,
  ).get({ id: job.id, kind: job.kind, entityKey: job.entityKey })?.id;
}

export function countJobs(store: Store, state: JobState): number {
  return (
    statement<{ state: string }, { count: number }>(
      store.db,
      'SELECT count(*) AS count FROM queue WHERE state = @state',
    ).get({ state })?.count ?? 0
  );
}

function toStoredJob(row: JobRow): StoredJob {
  return {
    id: row.id,
    kind: row.kind,
    entityKey: row.entity_key,
    idempotencyKey: row.idempotency_key ?? undefined,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error ?? undefined,
    lastStatus: row.last_status ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    supersededBy: row.superseded_by ?? undefined,
    leaseUntil: row.lease_until ?? undefined,
  };
}
