import { entryOf, query, type RowOf, statement, values } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

export type DeadLetterResolution = 'retried' | 'dropped';

/** One time a job went dead. Resolved by a retry or a drop, never deleted. */
export interface DeadLetter {
  id: number;
  jobId: number;
  /** What failed and what to do, naming the resource and id. */
  reason: string;
  httpStatus: number | undefined;
  /** The start of the platform's answer, as received. */
  bodyExcerpt: string | undefined;
  deadAt: string;
  resolvedAt: string | undefined;
  resolution: DeadLetterResolution | undefined;
}

export interface NewDeadLetter {
  reason: string;
  httpStatus?: number | undefined;
  bodyExcerpt?: string | undefined;
}

export function addDeadLetter(store: Store, jobId: number, letter: NewDeadLetter): number {
  return Number(
    statement<Record<string, string | number | null>>(
      store.db,
      `INSERT INTO dead_letters (job_id, reason, http_status, body_excerpt, dead_at)
       VALUES (@jobId, @reason, @httpStatus, @bodyExcerpt, @now)`,
    ).run({
      jobId,
      reason: letter.reason,
      httpStatus: letter.httpStatus ?? null,
      bodyExcerpt: letter.bodyExcerpt ?? null,
      now: storedNow(store),
    }).lastInsertRowid,
  );
}

/** Every dead letter of one job, oldest first. */
export function deadLettersOf(store: Store, jobId: number): DeadLetter[] {
  return query<{ jobId: number }, RowOf<DeadLetter>>(
    store.db,
    `SELECT id, job_id AS jobId, reason, http_status AS httpStatus, body_excerpt AS bodyExcerpt,
       dead_at AS deadAt, resolved_at AS resolvedAt, resolution
     FROM dead_letters WHERE job_id = @jobId ORDER BY id`,
    {
      id: 'number',
      jobId: 'number',
      reason: 'text',
      httpStatus: 'number?',
      bodyExcerpt: 'text?',
      deadAt: 'text',
      resolvedAt: 'text?',
      resolution: 'text?',
    },
  )
    .all({ jobId })
    .map((row) => entryOf<DeadLetter>(row));
}

/** Ids of the jobs with an unresolved dead letter, oldest first. */
export function openDeadLetterJobIds(store: Store): number[] {
  return values<object, number>(
    store.db,
    'SELECT DISTINCT job_id FROM dead_letters WHERE resolved_at IS NULL ORDER BY job_id',
    'number',
  ).all({});
}

/** Resolves the job's open dead letters; returns how many there were. */
export function resolveDeadLetters(
  store: Store,
  jobId: number,
  resolution: DeadLetterResolution,
): number {
  return statement<Record<string, string | number>>(
    store.db,
    `UPDATE dead_letters SET resolved_at = @now, resolution = @resolution
     WHERE job_id = @jobId AND resolved_at IS NULL`,
  ).run({ jobId, resolution, now: storedNow(store) }).changes;
}

/**
 * How many dead letters were opened, as the highest id: it grows by one with each new one, so an
 * alert's digest counts the new ones by it. (Retention removing the newest resolved row lets
 * its id be given out again: a digest then counts one fewer, never one too many.)
 */
export function deadLettersOpened(store: Store): number {
  return (
    query<object, { id: number | null }>(store.db, 'SELECT max(id) AS id FROM dead_letters', {
      id: 'number?',
    }).get({})?.id ?? 0
  );
}
