import { TransientError } from '../shared/errors.js';
import { STORE_FULL, whenDiskFull } from './diskFull.js';
import { ROOM_QUIET_MS, storedNow, type Store } from './store.js';

/**
 * When a commit is on the disk. `synced` (the store's rule, synchronous=FULL): before the commit
 * returns. `withTheNextSync`: a commit whose loss in a power cut costs nothing but work done
 * again (the pull's slices before the one that moves the checkpoint: the page is listed again)
 * goes without its own fsync. The WAL is one file written in order, so the next synced commit,
 * of any connection, puts it on the disk too, and whatever acts on it (a hand-over's claim and
 * completion, the checkpoint's commit) is such a commit. A crash of the process loses nothing
 * either way: the operating system has the write.
 */
export type Durable = 'synced' | 'withTheNextSync';

/** The store's rule for every commit but a `withTheNextSync` one (set when a file is opened). */
export const SYNCED_COMMITS = 'synchronous = FULL';

/**
 * Runs `work` in one write transaction: everything it wrote commits together, or, when it
 * throws, nothing does. The write lock is taken at the start (IMMEDIATE), so a second process
 * waits its turn instead of failing half way. Nested calls become savepoints. `work` must be
 * synchronous (better-sqlite3 refuses a function that returns a promise): a transaction is
 * never held open across an await. A full disk, met inside or at the commit, is the store's one
 * clear error (see whenDiskFull), and the store's `room` holds it as a state (see Room).
 */
export function transaction<T>(store: Store, work: () => T, durable: Durable = 'synced'): T {
  let result: T;
  const later = durable === 'withTheNextSync' && !store.db.inTransaction;
  try {
    if (later) store.db.pragma('synchronous = NORMAL');
    result = store.db.transaction(work).immediate();
  } catch (error) {
    const reported = whenDiskFull(error, store.path);
    if (reported instanceof TransientError && reported.code === STORE_FULL) {
      store.room.fullSince ??= storedNow(store);
      store.room.lastFullAt = store.clock.now().getTime();
      store.room.problem = reported.message;
    }
    throw reported;
  } finally {
    if (later) store.db.pragma(SYNCED_COMMITS);
  }
  roomBack(store);
  return result;
}

/** After a commit: the disk has room again once no write failed for want of it for a while. */
function roomBack(store: Store): void {
  const { room } = store;
  if (room.fullSince === undefined) return;
  if (store.clock.now().getTime() - (room.lastFullAt ?? 0) < ROOM_QUIET_MS) return;
  room.fullSince = undefined;
  room.lastFullAt = undefined;
}
