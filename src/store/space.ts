import fs from 'node:fs';
import { whenDiskFull } from './diskFull.js';
import type { Store } from './store.js';
import { transaction } from './transaction.js';

/** `PRAGMA auto_vacuum`: 0 none, 1 full, 2 incremental. */
export type AutoVacuum = 'none' | 'full' | 'incremental';

const AUTO_VACUUM: readonly AutoVacuum[] = ['none', 'full', 'incremental'];

export function autoVacuumOf(store: Store): AutoVacuum {
  const mode = store.db.pragma('auto_vacuum', { simple: true });
  return AUTO_VACUUM[Number(mode)] ?? 'none';
}

export function pragmaNumber(store: Store, name: string): number {
  return Number(store.db.pragma(name, { simple: true }));
}

/** Size of a file in bytes, 0 when it is not there (the `-wal` of a closed database). */
export function fileBytes(path: string): number {
  return fs.statSync(path, { throwIfNoEntry: false })?.size ?? 0;
}

/**
 * Gives up to `pages` free pages back to the disk (the file shrinks by them), in one short write
 * transaction; returns how many are still free. Does nothing on a file without incremental
 * auto-vacuum, where SQLite reuses free pages but cannot cut them off.
 */
export function freePages(store: Store, pages: number): number {
  if (autoVacuumOf(store) !== 'incremental') return 0;
  transaction(store, () => store.db.pragma(`incremental_vacuum(${Math.max(1, pages)})`));
  return pragmaNumber(store, 'freelist_count');
}

/**
 * Copies what the WAL holds into the database without waiting for readers (a reader's snapshot
 * keeps the rest for the next time), so the WAL starts over and journal_size_limit cuts it back.
 */
export function checkpointWal(store: Store): void {
  store.db.pragma('wal_checkpoint(PASSIVE)');
}

export interface Compaction {
  /** Bytes of the database and its WAL before and after. */
  before: number;
  after: number;
}

const bytesOnDisk = (store: Store): number =>
  fileBytes(store.path) + fileBytes(`${store.path}-wal`);

/**
 * One VACUUM: rebuilds the file from its live rows only, so no free page, no slack in a page and
 * no WAL frame keeps a byte of what was deleted, and switches the file to incremental
 * auto-vacuum (an existing file changes only so). Then the WAL is copied and cut to nothing. It
 * writes the whole database once more (room of about its size is needed for the while) and waits
 * for readers: run it holding the writer lock, with no daemon on the file.
 */
export function compact(store: Store): Compaction {
  const before = bytesOnDisk(store);
  try {
    store.db.pragma('auto_vacuum = INCREMENTAL');
    store.db.exec('VACUUM');
    store.db.pragma('wal_checkpoint(TRUNCATE)');
  } catch (error) {
    throw whenDiskFull(error, store.path);
  }
  return { before, after: bytesOnDisk(store) };
}
