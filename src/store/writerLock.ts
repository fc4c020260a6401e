import fs from 'node:fs';
import Sqlite from 'better-sqlite3';
import type { Database } from './store.js';

/** Who holds a database's writer lock, as that process wrote it into the lock file. */
export interface LockHolder {
  pid: number;
  host: string;
  since: string;
}

export interface HeldLock {
  /** The lock file beside the database. */
  path: string;
  /** Gives the lock up; the OS gives it up too when the process dies, however it dies. */
  release(): void;
}

export type LockAttempt = { held: HeldLock } | { refused: LockHolder | undefined };

/** The lock file of a database: `<database>.lock`, never removed (see takeLock). */
export function lockFileOf(database: string): string {
  return `${database}.lock`;
}

const HOLDER_TABLE = 'CREATE TABLE IF NOT EXISTS holder (pid INTEGER, host TEXT, since TEXT)';

function isBusy(error: unknown): boolean {
  return error instanceof Sqlite.SqliteError && error.code.startsWith('SQLITE_BUSY');
}

/**
 * Names the holder in the lock file, in a transaction of its own. Best effort: a full disk
 * must not keep the daemon from starting, and the lock itself needs no space.
 */
function writeHolder(db: Database, holder: LockHolder): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.exec(HOLDER_TABLE);
    db.prepare('DELETE FROM holder').run();
    db.prepare('INSERT INTO holder (pid, host, since) VALUES (@pid, @host, @since)').run(holder);
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    if (isBusy(error)) throw error;
  }
}

/**
 * Takes the database's writer lock: a write transaction held open on `<database>.lock` (an
 * SQLite database of its own) for as long as the process runs. SQLite locks the file with a
 * POSIX lock, which the OS releases the moment the process ends — a `kill -9` or an OOM kill
 * leaves nothing to wait out. A second process (or connection) is refused at once, with the
 * holder it finds in the file. The file is never deleted: a process that deleted it while
 * another held it would let a third lock a new file beside the holder.
 */
export function takeLock(database: string, holder: LockHolder): LockAttempt {
  const path = lockFileOf(database);
  // Created owner-only first: SQLite would create it world-readable under the usual umask.
  fs.closeSync(fs.openSync(path, 'a', 0o600));
  const db = new Sqlite(path, { timeout: 0 });
  try {
    writeHolder(db, holder);
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    db.close();
    if (isBusy(error)) return { refused: readHolder(database) };
    throw error;
  }
  return {
    held: {
      path,
      release() {
        if (!db.open) return;
        db.exec('ROLLBACK');
        db.close();
      },
    },
  };
}

/**
 * The holder the lock file names, read without taking the lock (SQLite lets readers in beside
 * a held write transaction). After a crash it names the dead process: only takeLock knows
 * whether the lock is free.
 */
export function readHolder(database: string): LockHolder | undefined {
  const path = lockFileOf(database);
  if (!fs.existsSync(path)) return undefined;
  let db: Database | undefined;
  try {
    db = new Sqlite(path, { readonly: true, timeout: 1000 });
    return db.prepare<[], LockHolder>('SELECT pid, host, since FROM holder').get();
  } catch {
    // An empty lock file (no holder table yet) or one being written: nobody to name.
    return undefined;
  } finally {
    db?.close();
  }
}
