import Sqlite from 'better-sqlite3';
import { TransientError } from '../shared/errors.js';

/**
 * The one form a full disk takes when it meets the database, wherever it does (a pull, the
 * queue, the inbox, the HTTP endpoint): a TransientError naming the file and what to do. Every
 * caller already retries transient errors on its own schedule, so the daemon goes on by itself
 * once there is room again; the write that failed was rolled back whole. The store's `room`
 * holds the state, which the daemon logs (watched): the callers log it only at debug.
 */
export const STORE_FULL = 'STORE_FULL';

export function whenDiskFull(error: unknown, path: string): unknown {
  if (!(error instanceof Sqlite.SqliteError) || error.code !== 'SQLITE_FULL') return error;
  return new TransientError(
    `database ${path} cannot be written: the disk (or its quota) is full; free space there — homecare-sync keeps trying on its schedule and goes on by itself once there is room, nothing is lost`,
    { code: STORE_FULL, cause: error, needsOperator: true, watched: true },
  );
}
