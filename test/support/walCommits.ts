import { readFileSync } from 'node:fs';
import type { Store } from '../../src/store/index.js';

/**
 * Empties the store's write-ahead log, so that `walCommits` counts the commits from here on.
 * Nothing else may write meanwhile.
 */
export function emptyWal(store: Store): void {
  store.db.pragma('wal_checkpoint(TRUNCATE)');
}

/**
 * The commits in the store's write-ahead log since it was emptied: the frames that carry the
 * database's size after a commit, read from the file as SQLite's WAL format defines it (a
 * 32-byte header; frames of a 24-byte header and a page, valid while their salts are the log's).
 */
export function walCommits(store: Store): number {
  const wal = readFileSync(`${store.path}-wal`);
  if (wal.length < 32) return 0;
  const pageSize = wal.readUInt32BE(8);
  const salts = [wal.readUInt32BE(16), wal.readUInt32BE(20)];
  let commits = 0;
  for (let at = 32; at + 24 + pageSize <= wal.length; at += 24 + pageSize) {
    if (wal.readUInt32BE(at + 8) !== salts[0] || wal.readUInt32BE(at + 12) !== salts[1]) break;
    if (wal.readUInt32BE(at + 4) !== 0) commits += 1;
  }
  return commits;
}
