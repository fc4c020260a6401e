import fs from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SetupError, errorMessage } from '../shared/errors.js';

/** Patient data: the owner alone may read the database. SQLite gives -wal/-shm the same mode. */
const fileMode = 0o600;

/**
 * Makes sure the database file can be opened: its folder exists, the path is no folder, and the
 * file exists with mode 0600 before SQLite opens it (SQLite would create it world-readable under
 * the usual umask). Returns the absolute path.
 */
export function prepareDatabaseFile(configuredPath: string): string {
  const path = resolve(configuredPath);
  createFolder(dirname(path));
  const existing = statOrUndefined(path);
  if (existing?.isDirectory() === true) {
    throw new SetupError(
      `storage.path ${path} is a folder: set storage.path to a file inside it, for example ${resolve(path, 'homecare-sync.db')}`,
      [],
      { code: 'STORE_PATH_IS_FOLDER' },
    );
  }
  if (existing === undefined) createFile(path);
  for (const file of [path, `${path}-wal`, `${path}-shm`]) restrictMode(file);
  return path;
}

function createFolder(folder: string): void {
  try {
    fs.mkdirSync(folder, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new SetupError(
      `cannot create folder ${folder} for storage.path: ${errorMessage(error)}; create it or choose another path`,
      [],
      { code: 'STORE_FOLDER', cause: error },
    );
  }
}

function createFile(path: string): void {
  try {
    fs.closeSync(fs.openSync(path, 'wx', fileMode));
  } catch (error) {
    // Another process created it between our check and now; it is checked like any file.
    if (isErrno(error, 'EEXIST')) return;
    throw new SetupError(
      `cannot create database ${path}: ${errorMessage(error)}; give homecare-sync write access to its folder`,
      [],
      { code: 'STORE_FILE', cause: error },
    );
  }
}

/** Takes group and others' access away from a file that has it; absent files are left alone. */
function restrictMode(path: string): void {
  const stats = statOrUndefined(path);
  if (stats === undefined || (stats.mode & 0o077) === 0) return;
  try {
    fs.chmodSync(path, fileMode);
  } catch (error) {
    throw new SetupError(
      `database file ${path} has mode ${(stats.mode & 0o777).toString(8)} and cannot be set to 600: ${errorMessage(error)}; run homecare-sync as the file's owner`,
      [],
      { code: 'STORE_FILE_MODE', cause: error },
    );
  }
}

function statOrUndefined(path: string): fs.Stats | undefined {
  try {
    return fs.statSync(path);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw new SetupError(`cannot read ${path}: ${errorMessage(error)}`, [], {
      code: 'STORE_FILE',
      cause: error,
    });
  }
}

function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && 'code' in error && error.code === code;
}
