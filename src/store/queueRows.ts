import { type ColumnsOf, query } from './statements.js';
import type { Store } from './store.js';
import type { JobState } from './jobStates.js';

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
  /** Set when `nextAttemptAt` is what the other side asked for (its `Retry-After`). */
  retryAfterUntil: string | undefined;
  lastError: string | undefined;
  lastStatus: number | undefined;
  createdAt: string;
  updatedAt: string;
  supersededBy: number | undefined;
  leaseUntil: string | undefined;
  /** The batch the job was last handed over in, with the other jobs of that batch. */
  batch: number | undefined;
}

export interface JobRow {
  id: number;
  kind: string;
  entity_key: string;
  idempotency_key: string | null;
  payload: string;
  state: JobState;
  attempts: number;
  next_attempt_at: string;
  retry_after_until: string | null;
  last_error: string | null;
  last_status: number | null;
  created_at: string;
  updated_at: string;
  superseded_by: number | null;
  lease_until: string | null;
  batch_id: number | null;
}

export const JOB_COLUMNS: ColumnsOf<JobRow> = {
  id: 'number',
  kind: 'text',
  entity_key: 'text',
  idempotency_key: 'text?',
  payload: 'text',
  state: 'text',
  attempts: 'number',
  next_attempt_at: 'text',
  retry_after_until: 'text?',
  last_error: 'text?',
  last_status: 'number?',
  created_at: 'text',
  updated_at: 'text',
  superseded_by: 'number?',
  lease_until: 'text?',
  batch_id: 'number?',
};

export const columns = Object.keys(JOB_COLUMNS).join(', ');

/** A job that may run now, with what a worker needs to group it with others. */
export interface ReadyJob {
  id: number;
  kind: string;
  /** Set when the job was handed over in a batch that may not have finished (a crash). */
  batch: number | undefined;
}

/** Kinds that start with `prefix` (`inside`), or every other kind (`inside: false`). */
export interface KindFilter {
  prefix: string;
  inside: boolean;
}

/** Whether `kind` is one of `kinds`: in this process, as KIND_FILTER_SQL says it in a query. */
export const inKinds = ({ prefix, inside }: KindFilter, kind: string): boolean =>
  kind.startsWith(prefix) === inside;

/** The condition of KindFilter on a `kind` column, with the parameters of kindParams(). */
export const KIND_FILTER_SQL = '(substr(kind, 1, length(@prefix)) = @prefix) = @inside';

export const kindParams = ({ prefix, inside }: KindFilter) => ({ prefix, inside: inside ? 1 : 0 });

/** Of pending jobs: due at `@now`, of the kinds, and first in line for their entity. */
const READY_SQL = `next_attempt_at <= @now AND ${KIND_FILTER_SQL}
  AND NOT EXISTS (SELECT 1 FROM queue AS earlier INDEXED BY queue_open
    WHERE earlier.entity_key = job.entity_key AND earlier.id < job.id
      AND earlier.state IN ('pending', 'running'))`;

/** READY_SQL without the kinds in `@held` (a JSON list): those an operator paused. */
const READY_UNHELD_SQL = `${READY_SQL} AND kind NOT IN (SELECT value FROM json_each(@held))`;

interface ReadyRow {
  id: number;
  kind: string;
  batch_id: number | null;
}

const READY_COLUMNS: ColumnsOf<ReadyRow> = { id: 'number', kind: 'text', batch_id: 'number?' };

/**
 * The first `limit` jobs of `kinds` that may run at `now`, oldest first: pending, due, and
 * first in line for their entity (no older job of the same key, of any kind, is pending or
 * running). So at most one per entity key, and a job never overtakes an older one of its entity
 * that another worker channel runs. Pending jobs are read in queue order until `limit` are
 * found, so a pass costs the same over a backlog of any size. A batch that a crash left
 * unfinished comes whole, including its ready jobs past the first `limit`: it goes out again
 * as it went before. Jobs of the `held` kinds (paused by an operator) are passed over; they
 * still hold back the later jobs of their entity.
 */
export function readyJobs(
  store: Store,
  now: string,
  kinds: KindFilter,
  limit: number,
  held: readonly string[] = [],
  kind?: string,
): ReadyJob[] {
  // Without held kinds the statement of before: the hot path gains no clause.
  const ready = held.length === 0 ? READY_SQL : READY_UNHELD_SQL;
  const conditions = {
    now,
    ...kindParams(kinds),
    ...(held.length === 0 ? {} : { held: JSON.stringify(held) }),
    ...(kind === undefined ? {} : { kind }),
  };
  // One kind's jobs by its index: the backlog of other kinds is not read.
  const source =
    kind === undefined
      ? `queue AS job INDEXED BY queue_state WHERE state = 'pending'`
      : `queue AS job INDEXED BY queue_kind WHERE state = 'pending' AND kind = @kind`;
  const first = query<typeof conditions & { limit: number }, ReadyRow>(
    store.db,
    `SELECT id, kind, batch_id FROM ${source} AND ${ready} ORDER BY id LIMIT @limit`,
    READY_COLUMNS,
  ).all({ ...conditions, limit });
  const batches = new Set(first.flatMap((row) => (row.batch_id === null ? [] : [row.batch_id])));
  const last = first.at(-1);
  const rest =
    batches.size === 0 || last === undefined || first.length < limit
      ? []
      : query<typeof conditions & { after: number; batches: string }, ReadyRow>(
          store.db,
          `SELECT id, kind, batch_id FROM ${source} AND id > @after
             AND batch_id IN (SELECT value FROM json_each(@batches)) AND ${ready}
           ORDER BY id`,
          READY_COLUMNS,
        ).all({ ...conditions, after: last.id, batches: JSON.stringify([...batches]) });
  return [...first, ...rest].map((row) => ({
    id: row.id,
    kind: row.kind,
    batch: row.batch_id ?? undefined,
  }));
}

/**
 * The kinds of `kinds` that have pending jobs, due or not, leaving out the `held` ones: one
 * look-up per kind found in the index of jobs by kind (a skip over it), however many jobs
 * each has.
 */
export function pendingKinds(
  store: Store,
  kinds: KindFilter,
  held: readonly string[] = [],
): string[] {
  const found = query<{ after: string }, { kind: string | null }>(
    store.db,
    `SELECT min(kind) AS kind FROM queue INDEXED BY queue_kind
     WHERE state = 'pending' AND kind > @after`,
    { kind: 'text?' },
  );
  const kindsFound: string[] = [];
  let at = found.get({ after: '' })?.kind;
  while (at !== null && at !== undefined) {
    if (inKinds(kinds, at) && !held.includes(at)) kindsFound.push(at);
    at = found.get({ after: at })?.kind;
  }
  return kindsFound;
}

export function getStoredJob(store: Store, id: number): StoredJob | undefined {
  const row = query<{ id: number }, JobRow>(
    store.db,
    `SELECT ${columns} FROM queue WHERE id = @id`,
    JOB_COLUMNS,
  ).get({ id });
  return row === undefined ? undefined : toStoredJob(row);
}

/**
 * Jobs in the given states, oldest first; `limit` < 0 for all. With `kindPrefix`, only kinds
 * that start with it (`deliver.` for the hand-overs to the ERP).
 */
export function listStoredJobs(
  store: Store,
  states: readonly JobState[],
  limit = -1,
  kindPrefix = '',
): StoredJob[] {
  return query<{ states: string; limit: number; prefix: string }, JobRow>(
    store.db,
    `SELECT ${columns} FROM queue WHERE state IN (SELECT value FROM json_each(@states))
       AND substr(kind, 1, length(@prefix)) = @prefix
     ORDER BY id LIMIT @limit`,
    JOB_COLUMNS,
  )
    .all({ states: JSON.stringify(states), limit, prefix: kindPrefix })
    .map(toStoredJob);
}

/** The newest job after `id` of the same kind and entity that was not itself superseded. */
export function newerJobId(store: Store, job: StoredJob): number | undefined {
  return query<Record<string, string | number>, { id: number }>(
    store.db,
    `SELECT max(id) AS id FROM queue
     WHERE kind = @kind AND entity_key = @entityKey AND id > @id AND state <> 'superseded'
     HAVING max(id) IS NOT NULL`,
    { id: 'number' },
  ).get({ id: job.id, kind: job.kind, entityKey: job.entityKey })?.id;
}

/** Jobs in `state`; with `kindPrefix`, only of kinds that start with it. */
export function countJobs(store: Store, state: JobState, kindPrefix = ''): number {
  return (
    query<{ state: string; prefix: string }, { count: number }>(
      store.db,
      `SELECT count(*) AS count FROM queue
       WHERE state = @state AND substr(kind, 1, length(@prefix)) = @prefix`,
      { count: 'number' },
    ).get({ state, prefix: kindPrefix })?.count ?? 0
  );
}

export function toStoredJob(row: JobRow): StoredJob {
  return {
    id: row.id,
    kind: row.kind,
    entityKey: row.entity_key,
    idempotencyKey: row.idempotency_key ?? undefined,
    payload: JSON.parse(row.payload) as Record<string, unknown>,
    state: row.state,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    retryAfterUntil: row.retry_after_until ?? undefined,
    lastError: row.last_error ?? undefined,
    lastStatus: row.last_status ?? undefined,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    supersededBy: row.superseded_by ?? undefined,
    leaseUntil: row.lease_until ?? undefined,
    batch: row.batch_id ?? undefined,
  };
}

/** Dead jobs with an open dead letter; with `kindPrefix`, only of kinds that start with it. */
export function countOpenDeadJobs(store: Store, kindPrefix = ''): number {
  return (
    query<{ prefix: string }, { count: number }>(
      store.db,
      `SELECT count(*) AS count FROM queue
       WHERE state = 'dead' AND substr(kind, 1, length(@prefix)) = @prefix
         AND EXISTS (SELECT 1 FROM dead_letters
                     WHERE dead_letters.job_id = queue.id AND resolved_at IS NULL)`,
      { count: 'number' },
    ).get({ prefix: kindPrefix })?.count ?? 0
  );
}

/** Pending jobs that failed at least once (waiting for their next try), oldest first. */
export function listRetryingJobs(store: Store, kindPrefix: string, limit: number): StoredJob[] {
  return query<{ prefix: string; limit: number }, JobRow>(
    store.db,
    `SELECT ${columns} FROM queue
     WHERE state = 'pending' AND attempts > 0 AND substr(kind, 1, length(@prefix)) = @prefix
     ORDER BY id LIMIT @limit`,
    JOB_COLUMNS,
  )
    .all({ prefix: kindPrefix, limit })
    .map(toStoredJob);
}

/** Dead jobs whose dead letter is open, oldest first. */
export function listOpenDeadJobs(store: Store, kindPrefix: string, limit: number): StoredJob[] {
  return query<{ prefix: string; limit: number }, JobRow>(
    store.db,
    `SELECT ${columns} FROM queue
     WHERE state = 'dead' AND substr(kind, 1, length(@prefix)) = @prefix
       AND EXISTS (SELECT 1 FROM dead_letters
                   WHERE dead_letters.job_id = queue.id AND resolved_at IS NULL)
     ORDER BY id LIMIT @limit`,
    JOB_COLUMNS,
  )
    .all({ prefix: kindPrefix, limit })
    .map(toStoredJob);
}
