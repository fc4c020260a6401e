import type BetterSqlite3 from 'better-sqlite3';
import type { Clock } from '../shared/clock.js';

export type Database = BetterSqlite3.Database;

/**
 * The open database with the clock its rows are stamped with. Repository functions take the
 * Store, so no write reads the system clock behind the caller's back.
 */
export interface Store {
  readonly db: Database;
  readonly clock: Clock;
  /** Absolute path of the database file, or `:memory:`. */
  readonly path: string;
  /** Whether the last write transaction failed for want of room (see `transaction`). */
  readonly room: Room;
  /** Who in this process is told that a job was queued on this database. */
  readonly jobsQueued: JobsQueued;
  close(): void;
}

/**
 * Tells listeners in this process the kind of each job queued (the queue worker, to wake the
 * channel that runs it at once rather than at its next poll). The store carries it because
 * every part that queues a job holds the store, and no other shared thing.
 */
export interface JobsQueued {
  /**
   * Called by the one function that queues, possibly inside a transaction not yet committed:
   * a hint to look, never a promise that the job is there.
   */
  tell(kind: string): void;
  /** Returns the function that stops telling `listener`. */
  listen(listener: (kind: string) => void): () => void;
}

/** A Store on the open connection `db` to the database file at `path`. */
export function storeOn(db: Database, clock: Clock, path: string): Store {
  const room = { fullSince: undefined, lastFullAt: undefined, problem: undefined };
  return { db, clock, path, room, jobsQueued: jobsQueued(), close: () => db.close() };
}

export function jobsQueued(): JobsQueued {
  const listeners = new Set<(kind: string) => void>();
  return {
    tell(kind) {
      for (const listener of listeners) listener(kind);
    },
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * A full disk as a state, not only as errors: set when a write transaction fails for want of
 * room, cleared by a commit once none has failed so for ROOM_QUIET_MS (a small write still fits
 * in the free pages of a full disk, so one commit proves nothing). Readiness reads it; the
 * daemon logs its changes.
 */
export interface Room {
  /** When writes began to fail for want of room (stored time), while they still do. */
  fullSince: string | undefined;
  /** When one last failed so (ms since the epoch, the store's clock). */
  lastFullAt: number | undefined;
  /** The last such failure, naming the file and what to do. */
  problem: string | undefined;
}

export const ROOM_QUIET_MS = 30_000;

/** The current time as stored: ISO 8601 UTC, which sorts as text. */
export function storedNow(store: Store): string {
  return store.clock.now().toISOString();
}

/**
 * A date-time as stored (ISO 8601 UTC), from a Date or any text Date can read. Stored times
 * compare correctly as text only in this one form.
 */
export function storedTime(value: Date | string, what: string): string {
  const time = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(time.getTime())) {
    throw new RangeError(`${what} is not a date-time: "${String(value)}"; use ISO 8601`);
  }
  return time.toISOString();
}
