import fs from 'node:fs';
import { hostname } from 'node:os';
import { SetupError } from '../shared/errors.js';
import { checkIntegrity, takeLock, type LockHolder, type Store } from '../store/index.js';

export interface WriterLock {
  /**
   * False once the database file or its lock file is no longer the one locked at start
   * (deleted, or replaced by another file): what this process writes then reaches nobody.
   */
  stillInPlace(): boolean;
  release(): void;
}

function identity(path: string): string | undefined {
  try {
    const stats = fs.statSync(path);
    return `${stats.dev}:${stats.ino}`;
  } catch {
    // No file there (any more): no identity, which the caller takes as not in place.
    return undefined;
  }
}

function holderText(holder: LockHolder | undefined): string {
  return holder === undefined
    ? 'another process holds it'
    : `process ${holder.pid} on ${holder.host} holds it since ${holder.since}`;
}

/**
 * Takes the database's one-writer lock, so two homecare-sync processes never write one
 * database at once (two would hand records to the ERP twice). The OS frees it when the process
 * ends, however it ends, so a restart after a crash starts at once. Read-only commands do not
 * take it. The new writer then checks the whole file (quick_check) before it writes anything. A database that lives in memory has no other process to keep out.
 */
export function takeWriterLock(store: Store): WriterLock {
  if (store.path === ':memory:') return { stillInPlace: () => true, release: () => undefined };
  const attempt = takeLock(store.path, {
    pid: process.pid,
    host: hostname(),
    since: store.clock.now().toISOString(),
  });
  if ('refused' in attempt) {
    throw new SetupError(
      `another homecare-sync is using ${store.path}`,
      [`${holderText(attempt.refused)}; stop that one first`],
      { code: 'STORE_LOCKED' },
    );
  }
  const { held } = attempt;
  try {
    checkIntegrity(store.db, store.path);
  } catch (error) {
    held.release();
    throw error;
  }
  const files = [store.path, held.path].map((path) => ({ path, at: identity(path) }));
  return {
    stillInPlace: () => files.every((file) => identity(file.path) === file.at),
    release: () => held.release(),
  };
}
