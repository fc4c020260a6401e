import fs from 'node:fs';
import { dirname, resolve } from 'node:path';
import { SetupError, errorMessage } from '../shared/errors.js';
import { makeFoldersSync } from '../shared/folders.js';

/** Patient data: the owner alone may read the database. SQLite gives -wal/-shm the same mode. */
const fileMode = 0o600;

export interface DatabaseFile {
  /** The absolute path. */
  path: string;
  /** No file was there: homecare-sync creates a new database. */
  missing: boolean;
}

/**
 * Looks at the database file before SQLite opens it, changing nothing in it: its folder exists
 * (created when missing), the path is no folder, and an existing file is not empty. An empty
 * file is never one homecare-sync left (it creates its databases whole, see createDatabase):
 * it is a database someone truncated, or another program's file, and taking it as a new
 * database would pull every record again and hand it to the ERP a second time.
 */
export function inspectDatabaseFile(configuredPath: string): DatabaseFile {
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
  if (existing?.size === 0) {
    throw new SetupError(
      `database ${path} is an empty file, which homecare-sync never leaves: restore the database from a backup, or delete the file to start a new database (every record is then pulled and handed to the ERP again)`,
      [],
      { code: 'STORE_EMPTY_FILE' },
    );
  }
  return { path, missing: existing === undefined };
}

/**
 * Puts a new database at `path` in one step: `build` fills a temp file beside it (mode 0600,
 * created before SQLite opens it, which would make it world-readable under the usual umask),
 * then the file is linked into place. A crash never leaves a half-made database at `path`. When
 * another process put one there first, that one is kept.
 */
export function createDatabase(path: string, build: (temp: string) => void): void {
  const temp = `${path}.new-${process.pid}`;
  try {
    fs.closeSync(fs.openSync(temp, 'w', fileMode));
    build(temp);
    fs.linkSync(temp, path);
  } catch (error) {
    if (!isErrno(error, 'EEXIST')) throw asCreateError(error, path);
  } finally {
    for (const file of [temp, `${temp}-wal`, `${temp}-shm`]) fs.rmSync(file, { force: true });
  }
}

function asCreateError(error: unknown, path: string): unknown {
  if (!isErrno(error, 'EACCES') && !isErrno(error, 'EPERM') && !isErrno(error, 'EROFS')) {
    return error;
  }
  return new SetupError(
    `cannot create database ${path}: ${errorMessage(error)}; give homecare-sync write access to its folder`,
    [],
    { code: 'STORE_FILE', cause: error },
  );
}

/**
 * Takes group and others' access away from the database and its -wal and -shm files, once the
 * database is known to be ours (a mistyped storage.path must not change another program's file).
 */
export function restrictDatabaseMode(path: string): void {
  for (const file of [path, `${path}-wal`, `${path}-shm`]) restrictMode(file);
}

function createFolder(folder: string): void {
  try {
    makeFoldersSync(folder, 0o700);
  } catch (error) {
    throw new SetupError(
      `cannot create folder ${folder} for storage.path: ${errorMessage(error)}; create it or choose another path`,
      [],
      { code: 'STORE_FOLDER', cause: error },
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
