import { plainQuery, query, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';
import { transaction } from './transaction.js';
import { transition } from './jobStates.js';
import { columns, JOB_COLUMNS, toStoredJob, type JobRow, type StoredJob } from './queueRows.js';

export type { JobState } from './jobStates.js';

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

/**
 * Queues a job, ready at once. A superseding job is one transaction with the jobs it replaces
 * (a savepoint inside the caller's); any other is one statement, atomic by itself.
 */
export function insertJob(store: Store, job: JobToInsert): InsertedJob {
  const insert = (): InsertedJob => {
    const now = storedNow(store);
    const inserted = query<Record<string, string | null>, { id: number }>(
      store.db,
      `INSERT INTO queue (kind, entity_key, idempotency_key, payload, next_attempt_at, created_at,
         updated_at)
       VALUES (@kind, @entityKey, @idempotencyKey, @payload, @now, @now, @now)
       ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`,
      { id: 'number' },
    ).get({
      kind: job.kind,
      entityKey: job.entityKey,
      idempotencyKey: job.idempotencyKey ?? null,
      payload: JSON.stringify(job.payload),
      now,
    });
    if (inserted === undefined) {
      const existing = query<{ key: string }, { id: number }>(
        store.db,
        'SELECT id FROM queue WHERE idempotency_key = @key',
        { id: 'number' },
      ).get({ key: job.idempotencyKey ?? '' });
      if (existing === undefined)
        throw new Error(`queue: no job with idempotency key ${job.idempotencyKey}`);
      return { id: existing.id, queued: false, superseded: [] };
    }
    const superseded = job.supersedes ? supersedeOlder(store, inserted.id, job, now) : [];
    return { id: inserted.id, queued: true, superseded };
  };
  return job.supersedes ? transaction(store, insert) : insert();
}

function supersedeOlder(store: Store, id: number, job: JobToInsert, now: string): number[] {
  return query<Record<string, string | number>, { id: number }>(
    store.db,
    // Through the open jobs of the entity only (queue_open), not every job it ever had.
    `UPDATE queue INDEXED BY queue_open SET state = @to, superseded_by = @id, updated_at = @now
     WHERE kind = @kind AND entity_key = @entityKey AND state = @from
       AND state IN ('pending', 'running') AND id < @id
     RETURNING id`,
    { id: 'number' },
  )
    .all({
      id,
      kind: job.kind,
      entityKey: job.entityKey,
      now,
      ...transition('pending', 'superseded'),
    })
    .map((row) => row.id)
    .sort((a, b) => a - b);
}

/** Compare-and-swap: the job becomes `running` only if it is still pending. Returns it if so. */
export function claimJob(store: Store, id: number, leaseUntil: string): StoredJob | undefined {
  return claimJobs(store, [id], leaseUntil, undefined)[0];
}

/**
 * Claims jobs together, in one statement: those still pending become `running`, returned in the
 * order given; with `batch`, each is noted as part of it, so that after a crash the same jobs go
 * out together again.
 */
export function claimJobs(
  store: Store,
  ids: readonly number[],
  leaseUntil: string,
  batch: number | undefined,
): StoredJob[] {
  if (ids.length === 0) return [];
  const rows = query<Record<string, string | number | null>, JobRow>(
    store.db,
    // By id (NOT INDEXED keeps SQLite from reading every pending job through queue_state).
    `UPDATE queue NOT INDEXED SET state = @to, lease_until = @leaseUntil, updated_at = @now,
       batch_id = coalesce(@batch, batch_id)
     WHERE id IN (SELECT value FROM json_each(@ids)) AND state = @from RETURNING ${columns}`,
    JOB_COLUMNS,
  ).all({
    ids: JSON.stringify(ids),
    leaseUntil,
    now: storedNow(store),
    batch: batch ?? null,
    ...transition('pending', 'running'),
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row === undefined ? [] : [toStoredJob(row)];
  });
}

/** A new batch number for jobs of `kind` handed over together; numbers only ever grow. */
export function newBatch(store: Store, kind: string): number {
  const row = query<Record<string, string>, { id: number }>(
    store.db,
    'INSERT INTO job_batches (kind, formed_at) VALUES (@kind, @now) RETURNING id',
    { id: 'number' },
  ).get({ kind, now: storedNow(store) });
  if (row === undefined) throw new Error('queue: no batch number was given out');
  return row.id;
}

/**
 * Makes every batch number given out from now on greater than `highest` (the highest the ERP's
 * outbox already holds): after a restored backup the database remembers only the numbers it had
 * given out by then. A row numbered `highest` is the mark (job_batches.id is a rowid without
 * AUTOINCREMENT: the next is the highest plus one). Answers the highest number the database had
 * given out, when it was lower; undefined when nothing changed.
 */
export function raiseBatchNumbers(store: Store, highest: number): number | undefined {
  const given =
    query<object, { id: number | null }>(store.db, 'SELECT max(id) AS id FROM job_batches', {
      id: 'number?',
    }).get({})?.id ?? 0;
  if (highest <= given) return undefined;
  statement<Record<string, string | number>>(
    store.db,
    "INSERT INTO job_batches (id, kind, formed_at) VALUES (@id, 'outbox', @now)",
  ).run({ id: highest, now: storedNow(store) });
  return given;
}

/** `answer`: what the platform answered the job's write, in words, for the trace. */
export function completeJob(store: Store, id: number, answer?: string): void {
  statement<Record<string, string | number | null>>(
    store.db,
    `UPDATE queue SET state = @to, lease_until = NULL, updated_at = @now, answer = @answer
     WHERE id = @id AND state = @from`,
  ).run({ id, now: storedNow(store), answer: answer ?? null, ...transition('running', 'done') });
}

export interface JobFailure {
  attempts: number;
  error: string;
  status: number | undefined;
}

/** When a failed job is tried again, and whether that wait is the other side's `Retry-After`. */
export interface NextTry {
  at: string;
  theirs: boolean;
}

/**
 * A running job failed and waits until `next.at`. Its batch is forgotten: the hand-over
 * failed, so nothing of it reached the ERP, and the next try may join another batch.
 */
export function scheduleRetry(store: Store, id: number, failure: JobFailure, next: NextTry): void {
  statement<Record<string, string | number | null>>(
    store.db,
    `UPDATE queue SET state = @to, lease_until = NULL, attempts = @attempts,
       next_attempt_at = @nextAttemptAt, retry_after_until = @retryAfterUntil,
       last_error = @error, last_status = @status, updated_at = @now, batch_id = NULL
     WHERE id = @id AND state = @from`,
  ).run({
    id,
    nextAttemptAt: next.at,
    retryAfterUntil: next.theirs ? next.at : null,
    ...failureParams(failure),
    now: storedNow(store),
    ...transition('running', 'pending'),
  });
}

/** A running job failed for good; the caller adds its dead letter in the same transaction. */
export function markDead(store: Store, id: number, failure: JobFailure): boolean {
  return (
    statement<Record<string, string | number | null>>(
      store.db,
      `UPDATE queue SET state = @to, lease_until = NULL, attempts = @attempts,
         last_error = @error, last_status = @status, updated_at = @now, batch_id = NULL
       WHERE id = @id AND state = @from`,
    ).run({
      id,
      ...failureParams(failure),
      now: storedNow(store),
      ...transition('running', 'dead'),
    }).changes === 1
  );
}

function failureParams(failure: JobFailure): Record<string, string | number | null> {
  return { attempts: failure.attempts, error: failure.error, status: failure.status ?? null };
}

/**
 * Puts `running` jobs not in `keep` back to pending, attempts unchanged (a crash is not a
 * failed try), each still in its batch: the ERP may hold that batch already, and only the same
 * jobs handed over again under the same number are recognised as a repeat. Returns their ids.
 */
export function releaseRunning(store: Store, keep: ReadonlySet<number>): number[] {
  const running = plainQuery<{ id: number }>(
    store.db,
    "SELECT id FROM queue WHERE state = 'running' ORDER BY id",
    { id: 'number' },
  )
    .all()
    .map((row) => row.id)
    .filter((id) => !keep.has(id));
  return releaseJobs(store, running, { interrupted: true });
}

/**
 * The `last_error` of a job a stopped process left running: its request may have reached the
 * other side, which a create that cannot look for what it made must not send blindly again.
 */
export const INTERRUPTED =
  'interrupted: the process stopped while this job ran, so its request may have been sent';

/**
 * Puts the given `running` jobs back to pending, as releaseRunning does; returns their ids.
 * `interrupted`: they were running when their process stopped (their `last_error` says so);
 * otherwise they were claimed and never started.
 */
export function releaseJobs(
  store: Store,
  ids: readonly number[],
  { interrupted = false } = {},
): number[] {
  const release = statement<Record<string, string | number>>(
    store.db,
    `UPDATE queue SET state = @to, lease_until = NULL, updated_at = @now,
       last_error = CASE WHEN @interrupted THEN @reason ELSE last_error END
     WHERE id = @id AND state = @from`,
  );
  const moved = transition('running', 'pending');
  const marks = { interrupted: interrupted ? 1 : 0, reason: INTERRUPTED };
  return transaction(store, () =>
    ids.filter(
      (id) => release.run({ id, now: storedNow(store), ...marks, ...moved }).changes === 1,
    ),
  );
}

/** A dead job back to pending, due now, attempts reset. False when it is not dead. */
export function reviveJob(store: Store, id: number): boolean {
  const now = storedNow(store);
  return (
    statement<Record<string, string | number>>(
      store.db,
      `UPDATE queue SET state = @to, attempts = 0, next_attempt_at = @now,
         retry_after_until = NULL, updated_at = @now
       WHERE id = @id AND state = @from`,
    ).run({ id, now, ...transition('dead', 'pending') }).changes === 1
  );
}

/**
 * Pending jobs waiting for their next try are due now, as an operator's one-shot pass asks:
 * our own back-off is skipped, but a job whose last answer carried a `Retry-After` still ahead
 * keeps its time, since the other side asked not to be called sooner. Tries are not reset.
 * Returns how many were brought forward.
 */
export function bringForward(store: Store): number {
  return statement<Record<string, string>>(
    store.db,
    // Through the pending jobs only (queue_state), not every job ever queued.
    `UPDATE queue INDEXED BY queue_state SET next_attempt_at = @now, updated_at = @now
     WHERE state = 'pending' AND next_attempt_at > @now
       AND (retry_after_until IS NULL OR retry_after_until <= @now)`,
  ).run({ now: storedNow(store) }).changes;
}
