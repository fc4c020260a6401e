import { KIND_FILTER_SQL, kindParams, type KindFilter } from './queueRows.js';
import { plainQuery, query } from './statements.js';
import type { Store } from './store.js';

/** The oldest piece of work still open in one place, and how many are open there. */
export interface OldestOpen {
  count: number;
  /** ISO time the oldest one came in; undefined when none is open. */
  since: string | undefined;
}

interface Row {
  n: number;
  oldest: string | null;
}

/**
 * The queue jobs of `kinds` not done yet, waiting or running, whatever they wait for (the ERP,
 * a reference, a retry); dead letters are not open. Jobs of the `held` kinds (an operator
 * paused them) wait by intent and are left out.
 */
export function oldestOpenJob(
  store: Store,
  kinds: KindFilter,
  held: readonly string[] = [],
): OldestOpen {
  const row = query<ReturnType<typeof kindParams> & { held: string }, Row>(
    store.db,
    `SELECT count(*) AS n, min(created_at) AS oldest FROM queue
     WHERE state IN ('pending', 'running') AND ${KIND_FILTER_SQL}
       AND kind NOT IN (SELECT value FROM json_each(@held))`,
    { n: 'number', oldest: 'text?' },
  ).get({ ...kindParams(kinds), held: JSON.stringify(held) });
  return { count: row?.n ?? 0, since: row?.oldest ?? undefined };
}

/** Whether the database answers a query at all (liveness). */
export function databaseAnswers(store: Store): boolean {
  try {
    return (
      plainQuery<{ one: number }>(store.db, 'SELECT 1 AS one', { one: 'number' }).get()?.one === 1
    );
  } catch {
    // The probe's whole answer: a database that throws here does not answer, whatever the cause.
    return false;
  }
}
