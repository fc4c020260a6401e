import { SetupError } from '../shared/errors.js';
import { MIGRATIONS, SCHEMA_VERSION } from './migrations.js';
import { plainStatement, statement } from './statements.js';
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

/** The version without taking the write lock, so `status` beside a busy daemon does not wait. */
function versionIfCurrent(db: Database): number | undefined {
  const table = plainStatement<{ name: string }>(
    db,
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
  ).get();
  return table === undefined ? undefined : schemaVersion(db);
}

/**
 * Brings the schema up to this build's version in one transaction. The version is read again
 * inside the transaction, so two processes starting on a new file apply each step once.
 */
export function migrate(db: Database, path: string, now: Date): void {
  const seen = versionIfCurrent(db);
  if (seen !== undefined && seen > SCHEMA_VERSION) throw tooNew(path, seen);
  if (seen === SCHEMA_VERSION) return;
  db.transaction(() => {
    db.exec(`CREATE TABLE IF NOT EXISTS schema_version (
      version    INTEGER PRIMARY KEY,
      name       TEXT NOT NULL,
      applied_at TEXT NOT NULL
    ) STRICT`);
    const current = schemaVersion(db);
    if (current > SCHEMA_VERSION) throw tooNew(path, current);
    if (current === 0) db.pragma(`application_id = ${APPLICATION_ID}`);
    MIGRATIONS.forEach((migration, index) => {
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
  const row = plainStatement<{ version: number | null }>(
    db,
    'SELECT max(version) AS version FROM schema_version',
  ).get();
  return row?.version ?? 0;
}
