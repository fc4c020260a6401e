import { whenDiskFull } from './diskFull.js';
import type { Store } from './store.js';

/**
 * Runs `work` in one write transaction: everything it wrote commits together, or, when it
 * throws, nothing does. The write lock is taken at the start (IMMEDIATE), so a second process
 * waits its turn instead of failing half way. Nested calls become savepoints. `work` must be
 * synchronous (better-sqlite3 refuses a function that returns a promise): a transaction is
 * never held open across an await. A full disk, met inside or at the commit, is the store's one
 * clear error (see whenDiskFull).
 */
export function transaction<T>(store: Store, work: () => T): T {
  try {
    return store.db.transaction(work).immediate();
  } catch (error) {
    throw whenDiskFull(error, store.path);
  }
}
