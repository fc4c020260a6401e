import type { Store } from './store.js';

/**
 * Pages the write-ahead log may hold before a commit copies them into the database file itself
 * (SQLite's default is 1,000, about 4 MB). That copy and its sync to disk run inside the commit
 * that crosses the mark, blocking the process for tens of milliseconds: at 1,000 pages a
 * 2,000-order backlog met one every 0.7 s. At 16,384 pages (64 MB) a backlog of that size meets
 * none; the queue worker copies the log when it has nothing to do instead (checkpointWhenIdle).
 */
export const WAL_AUTOCHECKPOINT_PAGES = 16_384;

/**
 * Copies what the write-ahead log holds into the database file, without waiting for readers or
 * writers (a PASSIVE checkpoint: whatever is in use stays for the next one). Cheap when there is
 * nothing to copy. Call it outside a transaction, when no work waits on the process.
 */
export function checkpointWhenIdle(store: Store): void {
  store.db.pragma('wal_checkpoint(PASSIVE)');
}
