import { accessSync, constants, statSync, type Stats } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Problem } from './problems.js';
import type { Config } from './schema.js';

/**
 * The folders the daemon writes into, each with the key that names it: the database's folder
 * (SQLite writes its `-wal`, `-shm` and lock beside the file) and, with the file adapter, the
 * ERP's drop folders.
 */
function foldersOf(config: Config, cwd: string): { at: string; path: string; named: string }[] {
  const database = resolve(cwd, dirname(config.storage.path));
  const folders = [
    { at: 'storage.path', path: database, named: `the folder of the database, ${database},` },
  ];
  if (config.erp.adapter === 'file') {
    for (const key of ['outbox', 'inbox'] as const) {
      const path = resolve(cwd, config.erp.file[key]);
      folders.push({ at: `erp.file.${key}`, path, named: path });
    }
  }
  return folders;
}

/** The path's stat, or undefined when nothing is there, a file standing in its way included. */
function stat(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}

function writable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK | constants.X_OK);
    return true;
  } catch {
    // access() answers "no" by throwing; the caller names the path and what to do.
    return false;
  }
}

/**
 * Why the daemon could neither use nor create the folder `path` (`what` names it), as this user;
 * undefined when it can. One that exists must be a writable folder; one that does not needs its
 * nearest existing parent to be a writable folder (the daemon creates the rest).
 */
export function folderProblem(path: string, what: string): string | undefined {
  const found = stat(path);
  if (found !== undefined) {
    if (!found.isDirectory()) return `${what} is not a folder`;
    if (!writable(path)) return `${what} is not writable for this user: give it write access`;
    return undefined;
  }
  let parent = dirname(path);
  while (stat(parent) === undefined && dirname(parent) !== parent) parent = dirname(parent);
  const existing = stat(parent);
  if (existing?.isDirectory() !== true) {
    return `${what} cannot be created: ${parent} is not a folder`;
  }
  if (!writable(parent)) {
    return `${what} cannot be created: ${parent}, its nearest existing parent, is not writable for this user; create it, or choose a path on a writable volume`;
  }
  return undefined;
}

/**
 * Every configured folder that the daemon could neither use nor create, as this user, from
 * `cwd` (see folderProblem). For `config check`, run where and as the daemon runs; a start meets
 * the same folders anyway.
 */
export function folderProblems(config: Config, cwd: string): Problem[] {
  return foldersOf(config, cwd).flatMap(({ at, path, named }) => {
    const message = folderProblem(path, named);
    return message === undefined ? [] : [{ at, message }];
  });
}
