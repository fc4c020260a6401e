import { plainStatement } from './statements.js';
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

function oldestOpen(store: Store, sql: string): OldestOpen {
  const row = plainStatement<Row>(store.db, sql).get();
  return { count: row?.n ?? 0, since: row?.oldest ?? undefined };
}

/**
 * Record versions pulled but not yet in the ERP, whatever their deliver job waits for: the
 * ERP, a reference, a retry (refused ones are dead letters, not open).
 */
export function oldestUndelivered(store: Store): OldestOpen {
  return oldestOpen(
    store,
    `SELECT count(*) AS n, min(created_at) AS oldest FROM queue
     WHERE state IN ('pending', 'running') AND kind LIKE 'deliver.%'`,
  );
}

/** The other queue jobs not done yet (acknowledgements, push-backs): waiting, or running. */
export function oldestOpenJob(store: Store): OldestOpen {
  return oldestOpen(
    store,
    `SELECT count(*) AS n, min(created_at) AS oldest FROM queue
     WHERE state IN ('pending', 'running') AND kind NOT LIKE 'deliver.%'`,
  );
}

/** Whether the database answers a query at all (liveness). */
export function databaseAnswers(store: Store): boolean {
  try {
    return plainStatement<{ one: number }>(store.db, 'SELECT 1 AS one').get()?.one === 1;
  } catch {
    return false;
  }
}
