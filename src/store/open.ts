import Sqlite from 'better-sqlite3';
import type { Clock } from '../shared/clock.js';
import { SetupError } from '../shared/errors.js';
import { APPLICATION_ID, migrate, requireCurrentSchema } from './migrate.js';
import { createDatabase, inspectDatabaseFile, restrictDatabaseMode } from './databaseFile.js';
import { plainQuery } from './statements.js';
import { storeOn, type Database, type Store } from './store.js';
import { SYNCED_COMMITS } from './transaction.js';

export interface OpenStoreOptions {
  /** `storage.path` from the config; `:memory:` for a database that lives only in memory. */
  path: string;
  clock: Clock;
  /**
   * false: an existing database an older build left is refused (SchemaBehindError) instead of
   * migrated, for a command that only looks (`check --online`); a new one is still created.
   */
  migrate?: boolean;
}

const memory = ':memory:';

/**
 * WAL pages after which a commit copies the WAL into the database file (SQLite's checkpoint;
 * its default is 1,000). A checkpoint holds the event loop: a large pull (~1.4 WAL pages a
 * record) paid one every one or two of its commits, 3.5 ms each; one every ~15 commits copies a
 * page written again in between only once and costs 21-26 ms. The pull of 200,000 records ran
 * 12-15 % faster; the cycle, the push and a restart after kill -9 the same. The WAL file grows
 * to ~40 MiB instead of ~4 MiB.
 */
export const WAL_CHECKPOINT_PAGES = 10_000;

/**
 * Bytes the `-wal` file is cut back to once a checkpoint has copied it whole: without a bound it
 * keeps the size of its largest moment (a VACUUM, a reader that held checkpoints off) for as
 * long as the daemon runs. Above the ~40 MiB WAL_CHECKPOINT_PAGES lets it reach, so the
 * everyday WAL is not cut and grown again.
 */
export const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/**
 * Opens (creating when missing) the homecare-sync database: file mode 0600, WAL with
 * synchronous=FULL and a bounded WAL file, foreign keys on, schema migrated; a new file with
 * incremental auto-vacuum, so pruned pages can be given back to the disk. Refuses, with a SetupError saying what to
 * do, a path that is a folder, an empty file, a file that is not SQLite or is damaged, another
 * application's database, a damaged or newer schema; it changes nothing in a file it refuses.
 */
export function openStore(options: OpenStoreOptions): Store {
  if (options.path === memory) return openConnection(memory, options.clock, 'new');
  const file = inspectDatabaseFile(options.path);
  if (file.missing) {
    createDatabase(file.path, (temp) => openConnection(temp, options.clock, 'new').close());
  }
  const store = openConnection(file.path, options.clock, 'existing', options.migrate ?? true);
  try {
    restrictDatabaseMode(file.path);
  } catch (error) {
    store.close();
    throw error;
  }
  return store;
}

/** `new`: a file homecare-sync has just created (empty, stamped by migrate). */
function openConnection(
  path: string,
  clock: Clock,
  file: 'new' | 'existing',
  migrating = true,
): Store {
  const db = connect(path);
  try {
    db.pragma('busy_timeout = 5000');
    if (file === 'existing') checkOwnership(db, path);
    // Only before the first table: an existing file needs one VACUUM to change it (space.ts).
    else db.pragma('auto_vacuum = INCREMENTAL');
    useWal(db, path);
    db.pragma(SYNCED_COMMITS);
    db.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma('foreign_keys = ON');
    if (migrating) migrate(db, path, clock.now());
    else requireCurrentSchema(db, path);
  } catch (error) {
    db.close();
    throw asSetupError(error, path);
  }
  return storeOn(db, clock, path);
}

function connect(path: string): Database {
  try {
    return new Sqlite(path);
  } catch (error) {
    throw asSetupError(error, path);
  }
}

/**
 * Ours only when it carries our application id: homecare-sync stamps every database it creates
 * before the file appears at its path. Anything else belongs to another program, or is a file
 * we did not make, and we write nothing into it.
 */
function checkOwnership(db: Database, path: string): void {
  const applicationId = db.pragma('application_id', { simple: true });
  if (applicationId === APPLICATION_ID) return;
  const tables = plainQuery<{ count: number }>(
    db,
    "SELECT count(*) AS count FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'",
    { count: 'number' },
  ).get();
  if (applicationId === 0 && tables?.count === 0) {
    throw new SetupError(
      `database ${path} is an empty SQLite database that homecare-sync did not create: delete it to start a new database, or set storage.path to the right file`,
      [],
      { code: 'STORE_FOREIGN_DATABASE' },
    );
  }
  throw new SetupError(
    `database ${path} is not a homecare-sync database (it is an SQLite file of another application): set storage.path to a new file, homecare-sync creates it`,
    [],
    { code: 'STORE_FOREIGN_DATABASE' },
  );
}

function useWal(db: Database, path: string): void {
  const mode = db.pragma('journal_mode = WAL', { simple: true });
  if (mode === 'wal' || (path === memory && mode === 'memory')) return;
  throw new SetupError(
    `database ${path} could not be switched to WAL journal mode (it stays in "${String(mode)}"): put storage.path on a local file system`,
    [],
    { code: 'STORE_NO_WAL' },
  );
}

const sqliteProblems: ReadonlyArray<[prefix: string, problem: string]> = [
  [
    'SQLITE_NOTADB',
    'is not an SQLite database or is damaged: set storage.path to another file, or restore this one from a backup',
  ],
  [
    'SQLITE_CORRUPT',
    'is damaged (SQLite reports it malformed): restore it from a backup, or set storage.path to a new file',
  ],
  [
    'SQLITE_CANTOPEN',
    'cannot be opened: check that its folder exists and that homecare-sync may read and write both',
  ],
  ['SQLITE_READONLY', 'is read-only: give homecare-sync write access to the file and its folder'],
  ['SQLITE_PERM', 'is not accessible: give homecare-sync read and write access to the file'],
  ['SQLITE_BUSY', 'is locked by another process: stop the other homecare-sync using it'],
  ['SQLITE_FULL', 'cannot be written: the disk is full; free space on it, then start again'],
];

function asSetupError(error: unknown, path: string): unknown {
  if (error instanceof SetupError) return error;
  const code = error instanceof Sqlite.SqliteError ? error.code : undefined;
  const match = sqliteProblems.find(([prefix]) => code?.startsWith(prefix) === true);
  if (match === undefined) return error;
  return new SetupError(`database ${path} ${match[1]}`, [], {
    code: 'STORE_UNUSABLE',
    cause: error,
  });
}
