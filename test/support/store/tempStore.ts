import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { openStore } from '../../../src/store/index.js';
import { migrate } from '../../../src/store/migrate.js';
import type { Database, Store } from '../../../src/store/index.js';
import type { RetentionDays } from '../../../src/housekeeping/index.js';
import { FakeClock } from '../fakeClock.js';

/** The retention tests' days: a month for everything, the keys of ended records a year. */
export const RETENTION_DAYS: RetentionDays = {
  jobs: 30,
  runs: 30,
  versions: 30,
  inboxMessages: 30,
  ownWrites: 30,
  quarantine: 30,
  endedRecords: 30,
  endedKeys: 365,
};

/** A temporary folder removed again by cleanup(); stores opened through it are closed first. */
export interface TempStores {
  folder: string;
  clock: FakeClock;
  open(file?: string): Store;
  cleanup(): void;
}

export function tempStores(): TempStores {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'homecare-sync-store-'));
  const clock = new FakeClock();
  const opened: Store[] = [];
  return {
    folder,
    clock,
    open(file = 'homecare-sync.db') {
      const store = openStore({ path: path.join(folder, file), clock });
      opened.push(store);
      return store;
    },
    cleanup() {
      for (const store of opened) if (store.db.open) store.close();
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * A database file as an older build left it at `path`: ours (its application id), with the
 * first `version` migrations applied and recorded. The open connection is for that build's
 * rows; close it before the store opens the file.
 */
export function databaseAtVersion(path: string, version: number): Database {
  const db = new Sqlite(path);
  migrate(db, path, new Date('2026-01-15T07:00:00.000Z'), version);
  return db;
}
