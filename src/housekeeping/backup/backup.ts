import fs from 'node:fs';
import path from 'node:path';
import { SetupError } from '../../shared/errors.js';
import { markRestorePoint } from './restorePoint.js';
import { fileBytes } from '../../store/space.js';
import { plainQuery, statement } from '../../store/statements.js';
import { storedNow, type Store } from '../../store/store.js';
import { transaction } from '../../store/transaction.js';
import { cutoffOf } from '../retention/prune.js';

/** Owner only: a backup holds the same patient data as the database. */
export const BACKUP_MODE = 0o600;

export interface BackupMade {
  path: string;
  bytes: number;
  madeAt: string;
}

export interface StoredBackup {
  path: string;
  madeAt: string;
  bytes: number;
}

/**
 * Refuses a target that would lose or mix data: the database itself (or its WAL), and any
 * existing file (a backup never overwrites; name each one, e.g. by its date).
 */
function checkTarget(store: Store, target: string): void {
  const own = [store.path, `${store.path}-wal`, `${store.path}-shm`, `${store.path}.lock`];
  if (own.includes(target)) {
    throw new SetupError(`backup ${target} is the database's own file`, [
      `choose a file outside ${store.path} and its -wal, -shm and .lock files`,
    ]);
  }
  if (fs.existsSync(target)) {
    throw new SetupError(`backup ${target} exists already`, [
      'a backup never replaces a file: choose a new name (e.g. with the date in it), or remove the old file first',
    ]);
  }
}

/**
 * Writes a consistent copy of the database to `target` while the daemon may go on writing:
 * SQLite's online backup, into a temp file created 0600 beside the target (so no other user can
 * open it even for a moment), synced, then renamed into place, so a crash never leaves a half
 * copy under the name. Not recorded: `sync --dry-run` works on such a copy and removes it.
 * `restorePoint`: the copy is a backup taken then, which it says once restored (restorePoint.ts).
 */
export async function copyStore(
  store: Store,
  target: string,
  restorePoint?: string,
): Promise<string> {
  const file = path.resolve(target);
  checkTarget(store, file);
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.partial-${process.pid}`);
  try {
    fs.closeSync(fs.openSync(temp, 'wx', BACKUP_MODE));
    fs.chmodSync(temp, BACKUP_MODE);
    await store.db.backup(temp);
    if (restorePoint !== undefined) markRestorePoint(temp, restorePoint);
    syncFile(temp);
    fs.renameSync(temp, file);
    syncFile(path.dirname(file));
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw asBackupProblem(error, file);
  }
  return file;
}

/**
 * A backup: a copy of the database (copyStore) that knows, once restored, when it was taken;
 * recorded in `backups`, where retention and `forget` find it.
 */
export async function backupStore(store: Store, target: string): Promise<BackupMade> {
  const file = await copyStore(store, target, storedNow(store));
  const made = { path: file, bytes: fileBytes(file), madeAt: storedNow(store) };
  transaction(store, () =>
    statement<StoredBackup>(
      store.db,
      `INSERT INTO backups (path, made_at, bytes) VALUES (@path, @madeAt, @bytes)
       ON CONFLICT (path) DO UPDATE SET made_at = excluded.made_at, bytes = excluded.bytes`,
    ).run(made),
  );
  return made;
}

function syncFile(file: string): void {
  const fd = fs.openSync(file, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

const CANNOT_WRITE: ReadonlySet<string> = new Set(['ENOENT', 'EACCES', 'EPERM', 'EROFS']);

/** A backup that failed for the operator's setup says what to change; nothing was kept. */
function asBackupProblem(error: unknown, file: string): unknown {
  const code = (error as { code?: unknown }).code;
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return new SetupError(`backup ${file} cannot be written: the disk is full`, [
      `free space on the disk of ${path.dirname(file)} (the backup needs about the database's size), or choose another folder`,
    ]);
  }
  if (typeof code === 'string' && CANNOT_WRITE.has(code)) {
    return new SetupError(`backup ${file} cannot be written (${code})`, [
      `check that ${path.dirname(file)} exists and that homecare-sync may write there`,
    ]);
  }
  return error;
}

/** The backups `backupStore` made, newest first. */
export function listBackups(store: Store): StoredBackup[] {
  return plainQuery<{ path: string; made_at: string; bytes: number }>(
    store.db,
    'SELECT path, made_at, bytes FROM backups ORDER BY made_at DESC, path',
    { path: 'text', made_at: 'text', bytes: 'number' },
  )
    .all()
    .map((row) => ({ path: row.path, madeAt: row.made_at, bytes: row.bytes }));
}

export interface BackupRetention {
  /** Days a backup is kept. */
  days: number;
  /** How many of the newest are kept at most. */
  kept: number;
}

/**
 * Removes the backups past `days`, and those beyond the newest `kept`: the file, then its row.
 * The newest backup is never removed for its age, so pruning never leaves none. A file already
 * gone (moved away by the operator) only loses its row. Returns the paths removed.
 */
export function pruneBackups(store: Store, retention: BackupRetention): string[] {
  const cutoff = cutoffOf(store, retention.days);
  const gone = listBackups(store).filter(
    (backup, index) => index > 0 && (index >= retention.kept || backup.madeAt < cutoff),
  );
  for (const backup of gone) {
    fs.rmSync(backup.path, { force: true });
    for (const suffix of ['-wal', '-shm', '-journal'])
      fs.rmSync(`${backup.path}${suffix}`, { force: true });
    transaction(store, () =>
      statement<{ path: string }>(store.db, 'DELETE FROM backups WHERE path = @path').run({
        path: backup.path,
      }),
    );
  }
  return gone.map((backup) => backup.path);
}
