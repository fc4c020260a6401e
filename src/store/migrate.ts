import Sqlite from 'better-sqlite3';
import { canonicalJson } from '../shared/canonicalJson.js';
import { sha256Of } from './ledger.js';
import { SetupError, errorMessage } from '../shared/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations/index.js';
import { plainQuery, statement } from './statements.js';
import type { Database } from './store.js';

/** `PRAGMA application_id` of a homecare-sync database: "HCSY" in ASCII. */
export const APPLICATION_ID = 0x48435359;

function tooNew(path: string, current: number): SetupError {
  return new SetupError(
    `database ${path} has schema version ${current}, this homecare-sync knows up to ${SCHEMA_VERSION}: upgrade homecare-sync or use another file`,
    [],
    { code: 'STORE_SCHEMA_TOO_NEW' },
  );
}

/**
 * A database an older build left, opened by a command that must not migrate it (`check
 * --online`): it says from which schema version to which the next start would take it.
 */
export class SchemaBehindError extends SetupError {
  constructor(
    path: string,
    readonly from: number,
    readonly to: number,
  ) {
    super(
      `database ${path} needs migration ${from}→${to}: the daemon's next start migrates it (take a backup first: homecare-sync backup <file>)`,
      [],
      { code: 'STORE_SCHEMA_BEHIND' },
    );
    this.name = 'SchemaBehindError';
  }
}

/**
 * Checks, changing nothing, that the schema is this build's: a newer one is refused as `migrate`
 * refuses it, an older one with SchemaBehindError.
 */
export function requireCurrentSchema(db: Database, path: string): void {
  const seen = versionIfCurrent(db) ?? 0;
  if (seen > SCHEMA_VERSION) throw tooNew(path, seen);
  if (seen < SCHEMA_VERSION) throw new SchemaBehindError(path, seen, SCHEMA_VERSION);
}

/** The version without taking the write lock, so `status` beside a busy daemon does not wait. */
function versionIfCurrent(db: Database): number | undefined {
  const table = plainQuery<{ name: string }>(
    db,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
    { name: 'text' },
  ).get();
  return table === undefined ? undefined : schemaVersion(db);
}

/**
 * SQLite's answer when a step does not fit the tables there (a step applied twice, a column
 * missing): the schema_version table does not tell the truth about the file.
 */
function isSchemaMismatch(error: unknown): boolean {
  if (!(error instanceof Sqlite.SqliteError)) return false;
  return (
    ['SQLITE_ERROR', 'SQLITE_MISMATCH'].includes(error.code) ||
    error.code.startsWith('SQLITE_CONSTRAINT')
  );
}

/**
 * Brings the schema up to this build's version in one transaction. The version is read again
 * inside the transaction, so two processes starting on a new file apply each step once. A
 * schema_version table that does not match the tables is refused with what to do. `target`
 * stops at an earlier version: a file as an older build left it (tests of an upgrade).
 */
export function migrate(db: Database, path: string, now: Date, target = SCHEMA_VERSION): void {
  try {
    migrateSteps(db, path, now, target);
  } catch (error) {
    if (!isSchemaMismatch(error)) throw error;
    throw new SetupError(
      `database ${path} has a damaged schema_version table (${errorMessage(error)}): restore the file from a backup, or set storage.path to a new file`,
      [],
      { code: 'STORE_SCHEMA_DAMAGED', cause: error },
    );
  }
}

function migrateSteps(db: Database, path: string, now: Date, target: number): void {
  const seen = versionIfCurrent(db);
  if (seen !== undefined && seen > SCHEMA_VERSION) throw tooNew(path, seen);
  if (seen === target) return;
  // For steps that fingerprint stored records as the ledger does, or ERP messages as the inbox.
  db.function('sha256', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? sha256Of(text) : null,
  );
  db.function('canonical_sha256', { deterministic: true }, (text: unknown) => {
    if (typeof text !== 'string') return null;
    try {
      return sha256Of(canonicalJson(JSON.parse(text)));
    } catch {
      // A body that is not JSON (a message kept as its text) has no canonical form to hash.
      return null;
    }
  });
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT`);
    const current = schemaVersion(db);
    if (current > SCHEMA_VERSION) throw tooNew(path, current);
    if (current === 0) db.pragma(`application_id = ${APPLICATION_ID}`);
    MIGRATIONS.slice(0, target).forEach((migration, index) => {
      const version = index + 1;
      if (version <= current) return;
      db.exec(migration.sql);
      statement<{ version: number; name: string; appliedAt: string }>(
        db,
        'INSERT INTO schema_version (version, name, applied_at) VALUES (@version, @name, @appliedAt)',
      ).run({ version, name: migration.name, appliedAt: now.toISOString() });
    });
  }).immediate();
}

export function schemaVersion(db: Database): number {
  const row = plainQuery<{ version: unknown }>(
    db,
    'SELECT max(version) AS version FROM schema_version',
    { version: 'any' },
  ).get();
  const version = row?.version ?? 0;
  if (Number.isInteger(version)) return version as number;
  const shown = typeof version === 'string' ? version : JSON.stringify(version);
  throw new Sqlite.SqliteError(`schema version "${shown}" is not a number`, 'SQLITE_MISMATCH');
}

function quickCheck(db: Database): string[] {
  try {
    const rows = db.pragma('quick_check') as { quick_check: string }[];
    return rows.map((row) => row.quick_check);
  } catch (error) {
    // A page so damaged that the check itself stops on it.
    if (error instanceof Sqlite.SqliteError && error.code.startsWith('SQLITE_CORRUPT')) {
      return [error.message];
    }
    throw error;
  }
}

/**
 * Runs SQLite's quick_check over the whole file: a writer looks before it starts, so that a
 * damaged database stops it with what to do instead of failing somewhere in the middle.
 */
export function checkIntegrity(db: Database, path: string): void {
  const found = quickCheck(db).filter((line) => line !== 'ok');
  if (found.length === 0) return;
  throw new SetupError(
    `database ${path} is damaged (SQLite's quick_check reports: ${found.slice(0, 3).join('; ')}): restore it from a backup, or set storage.path to a new file`,
    [],
    { code: 'STORE_DAMAGED' },
  );
}
