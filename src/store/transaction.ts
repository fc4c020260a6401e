import { TransientError } from '../shared/errors.js';
import { STORE_FULL, whenDiskFull } from './diskFull.js';
import { ROOM_QUIET_MS, storedNow, type Store } from './store.js';

/**
 * Runs `work` in one write transaction: everything it wrote commits together, or, when it
 * throws, nothing does. The write lock is taken at the start (IMMEDIATE), so a second process
 * waits its turn instead of failing half way. Nested calls become savepoints. `work` must be
 * synchronous (better-sqlite3 refuses a function that returns a promise): a transaction is
 * never held open across an await. A full disk, met inside or at the commit, is the store's one
 * clear error (see whenDiskFull), and the store's `room` holds it as a state (see Room).
 */
export function transaction<T>(store: Store, work: () => T): T {
  let result: T;
  try {
    result = store.db.transaction(work).immediate();
  } catch (error) {
    const reported = whenDiskFull(error, store.path);
    if (reported instanceof TransientError && reported.code === STORE_FULL) {
      store.room.fullSince ??= storedNow(store);
      store.room.lastFullAt = store.clock.now().getTime();
      store.room.problem = reported.message;
    }
    throw reported;
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
