import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';

/**
 * The copies of the database `sync --dry-run` works on (`.dry-run-<pid>-<random>/` beside the
 * database, made by SQLite's online backup): each holds every patient's data the database
 * holds, for as long as the dry run runs. A dry run removes its copy when it ends; one killed on
 * its way leaves it. Such a stale copy (its process is gone) is removed at the start of every
 * command that opens the database and by each retention pass, erased by `forget`, and listed by
 * `status` until then (docs/readme/data-protection.md).
 */
const PREFIX = '.dry-run-';
const NAMED = /^\.dry-run-(\d+)-/;

export interface DryRunCopy {
  /** The folder that holds the copy. */
  path: string;
  /** The process of the dry run that made it. */
  pid: number;
  /** Whether that process still runs (a stale copy's does not). */
  running: boolean;
}

/**
 * Whether process `pid` runs. A dry run in another container (another process namespace) on the
 * same volume looks ended from here: its copy is removed under it, and it goes on with the files
 * it holds open.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The dry-run copies beside `database` (its path), sorted by folder; none before its folder is
 * made (the first start). A folder that cannot be read is an error, not one without copies.
 */
export function dryRunCopies(database: string): DryRunCopy[] {
  if (database === ':memory:') return [];
  const folder = path.dirname(path.resolve(database));
  return namesIn(folder)
    .flatMap((name) => {
      const pid = Number(NAMED.exec(name)?.[1]);
      if (!Number.isInteger(pid) || pid <= 0) return [];
      return [{ path: path.join(folder, name), pid, running: alive(pid) }];
    })
    .sort((a, b) => (a.path < b.path ? -1 : 1));
}

function namesIn(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** Removes the stale dry-run copies beside `database`; answers the folders removed. */
export function removeStaleDryRuns(database: string): string[] {
  const stale = dryRunCopies(database).filter((copy) => !copy.running);
  for (const copy of stale) rmSync(copy.path, { recursive: true, force: true });
  return stale.map((copy) => copy.path);
}

/** A new folder for this process's dry-run copy of `database`, beside it. */
export function dryRunFolder(database: string): string {
  const folder = path.dirname(path.resolve(database));
  return mkdtempSync(path.join(folder, `${PREFIX}${process.pid}-`));
}
