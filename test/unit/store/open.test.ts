import Sqlite from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SetupError } from '../../../src/shared/errors.js';
import {
  APPLICATION_ID,
  SCHEMA_VERSION,
  WAL_CHECKPOINT_PAGES,
  WAL_SIZE_LIMIT_BYTES,
  checkIntegrity,
  openStore,
  schemaVersion,
} from '../../../src/store/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { tempStores } from '../../support/store/tempStore.js';
import type { TempStores } from '../../support/store/tempStore.js';

const tables = [
  'backups',
  'checkpoints',
  'console_sessions',
  'dead_letters',
  'erasures',
  'inbox_messages',
  'job_batches',
  'lease',
  'ledger',
  'mirror',
  'online_checks',
  'operator_actions',
  'own_writes',
  'pauses',
  'quarantine',
  'queue',
  'restore_point',
  'retention_cursors',
  'runs',
  'schema_version',
];

let temp: TempStores;
beforeEach(() => {
  temp = tempStores();
});
afterEach(() => temp.cleanup());

function openError(file: string): SetupError {
  try {
    openStore({ path: file, clock: new FakeClock() }).close();
  } catch (error) {
    expect(error).toBeInstanceOf(SetupError);
    return error as SetupError;
  }
  throw new Error(`opening ${file} should have failed`);
}

describe('openStore on a new file', () => {
  it('creates the folder and a 0600 database in WAL mode with synchronous=FULL', () => {
    const store = temp.open('nested/deeper/homecare-sync.db');
    const file = path.join(temp.folder, 'nested/deeper/homecare-sync.db');

    expect(store.path).toBe(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(store.db.pragma('busy_timeout', { simple: true })).toBe(5000);
    expect(store.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);

    store.db.prepare("INSERT INTO lease VALUES ('x', 'y', 'z', 'w')").run();
    expect(fs.statSync(`${file}-wal`).mode & 0o777).toBe(0o600);
  });

  it('leaves up to WAL_CHECKPOINT_PAGES pages in the WAL before a commit copies them over', () => {
    const store = temp.open();
    const file = path.join(temp.folder, 'homecare-sync.db');
    const pageSize = Number(store.db.pragma('page_size', { simple: true }));
    const insert = store.db.prepare("INSERT INTO lease VALUES (?, 'holder', 'since', ?)");
    const pages = () => fs.statSync(file).size / pageSize;
    const before = pages();
    // Rows of a few kB, one commit each: ~3,000 pages, three times SQLite's default threshold.
    for (let n = 0; n < 1_500; n += 1) insert.run(`lease-${n}`, 'x'.repeat(6_000));

    expect(fs.statSync(`${file}-wal`).size / pageSize).toBeGreaterThan(3_000);
    expect(pages()).toBe(before);
    expect(WAL_CHECKPOINT_PAGES).toBeGreaterThan(3_000);
  });

  it('makes a new file with incremental auto-vacuum and a bounded WAL file', () => {
    const store = temp.open();
    expect(store.db.pragma('auto_vacuum', { simple: true })).toBe(2);
    expect(store.db.pragma('journal_size_limit', { simple: true })).toBe(WAL_SIZE_LIMIT_BYTES);
  });

  it('creates every table and records the schema version', () => {
    const store = temp.open();
    const names = store.db
      .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
    expect(names).toEqual(tables);
    expect(schemaVersion(store.db)).toBe(SCHEMA_VERSION);
  });

  it('takes group and others access away from an existing database', () => {
    temp.open().close();
    const file = path.join(temp.folder, 'homecare-sync.db');
    fs.chmodSync(file, 0o644);
    temp.open();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });
});

describe('openStore on an existing homecare-sync database', () => {
  it('keeps the data and does not apply migrations again', () => {
    const first = temp.open();
    first.db.prepare("INSERT INTO lease VALUES ('daemon', 'host-a', 't0', 't1')").run();
    const appliedAt = first.db.prepare('SELECT applied_at FROM schema_version').pluck().all();
    first.close();

    temp.clock.advance(60_000);
    const second = temp.open();
    expect(second.db.prepare('SELECT holder FROM lease').pluck().all()).toEqual(['host-a']);
    expect(second.db.prepare('SELECT applied_at FROM schema_version').pluck().all()).toEqual(
      appliedAt,
    );
  });

  it('refuses a schema newer than this build knows', () => {
    const store = temp.open();
    store.db
      .prepare("INSERT INTO schema_version VALUES (?, 'from the future', '2030-01-01T00:00:00Z')")
      .run(SCHEMA_VERSION + 3);
    store.close();

    const file = path.join(temp.folder, 'homecare-sync.db');
    expect(openError(file).message).toBe(
      `database ${file} has schema version ${SCHEMA_VERSION + 3}, this homecare-sync knows up to ${SCHEMA_VERSION}: upgrade homecare-sync or use another file`,
    );
  });
});

describe('openStore refuses files that are not ours', () => {
  it('an SQLite database of another application', () => {
    const file = path.join(temp.folder, 'erp.db');
    const foreign = new Sqlite(file);
    foreign.exec("CREATE TABLE kunden (nr TEXT); INSERT INTO kunden VALUES ('K-1')");
    foreign.close();

    const error = openError(file);
    expect(error.message).toContain(`database ${file} is not a homecare-sync database`);
    expect(error.message).toContain('set storage.path to a new file');
    const reopened = new Sqlite(file);
    expect(reopened.pragma('journal_mode', { simple: true })).toBe('delete');
    expect(reopened.pragma('application_id', { simple: true })).toBe(0);
    reopened.close();
  });

  it('a database carrying another application id even without tables', () => {
    const file = path.join(temp.folder, 'other.db');
    const foreign = new Sqlite(file);
    foreign.pragma('application_id = 1234');
    foreign.close();
    expect(openError(file).message).toContain('is not a homecare-sync database');
  });

  it('a file that is not SQLite at all', () => {
    const file = path.join(temp.folder, 'notes.txt');
    fs.writeFileSync(file, 'Lieferschein 4711\n'.repeat(200));
    const error = openError(file);
    expect(error.message).toBe(
      `database ${file} is not an SQLite database or is damaged: set storage.path to another file, or restore this one from a backup`,
    );
    expect(error.code).toBe('STORE_UNUSABLE');
    expect(error.cause).toMatchObject({ code: 'SQLITE_NOTADB' });
  });

  it('a damaged SQLite file', () => {
    const good = path.join(temp.folder, 'good.db');
    const db = new Sqlite(good);
    db.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1)');
    db.close();
    const bytes = fs.readFileSync(good);
    bytes.fill(0xff, 100, 120);
    const file = path.join(temp.folder, 'damaged.db');
    fs.writeFileSync(file, bytes);

    expect(openError(file).message).toMatch(new RegExp(`^database ${file} is damaged`));
  });

  it('an empty file, which homecare-sync never leaves (a truncated database)', () => {
    const file = path.join(temp.folder, 'homecare-sync.db');
    fs.writeFileSync(file, '');
    expect(openError(file).message).toBe(
      `database ${file} is an empty file, which homecare-sync never leaves: restore the database from a backup, or delete the file to start a new database (every record is then pulled and handed to the ERP again)`,
    );
    expect(fs.statSync(file).size).toBe(0);
  });

  it('an empty SQLite database homecare-sync did not create', () => {
    const file = path.join(temp.folder, 'blank.db');
    const blank = new Sqlite(file);
    blank.exec('VACUUM');
    blank.close();
    expect(openError(file).message).toBe(
      `database ${file} is an empty SQLite database that homecare-sync did not create: delete it to start a new database, or set storage.path to the right file`,
    );
  });

  it("leaves a refused file's mode alone, also behind a symlink", () => {
    const file = path.join(temp.folder, 'erp.db');
    const foreign = new Sqlite(file);
    foreign.exec('CREATE TABLE kunden (nr TEXT)');
    foreign.close();
    fs.chmodSync(file, 0o644);
    const link = path.join(temp.folder, 'typo.db');
    fs.symlinkSync(file, link);
    expect(openError(link).message).toContain('is not a homecare-sync database');
    expect(openError(file).message).toContain('is not a homecare-sync database');
    expect(fs.statSync(file).mode & 0o777).toBe(0o644);
  });

  it('a path that is a folder', () => {
    const folder = path.join(temp.folder, 'data');
    fs.mkdirSync(folder);
    expect(openError(folder).message).toBe(
      `storage.path ${folder} is a folder: set storage.path to a file inside it, for example ${path.join(folder, 'homecare-sync.db')}`,
    );
  });
});

describe('a damaged homecare-sync database', () => {
  const file = () => path.join(temp.folder, 'homecare-sync.db');

  it('with schema_version rows gone is refused at open, naming the table', () => {
    const store = temp.open();
    store.db.exec('DELETE FROM schema_version');
    store.close();
    const error = openError(file());
    expect(error.message).toBe(
      `database ${file()} has a damaged schema_version table (table checkpoints already exists): restore the file from a backup, or set storage.path to a new file`,
    );
    expect(error.code).toBe('STORE_SCHEMA_DAMAGED');
  });

  it('with a schema_version that is not a number is refused at open', () => {
    const store = temp.open();
    store.db.exec(
      'DROP TABLE schema_version; CREATE TABLE schema_version (version, name, applied_at)',
    );
    store.db.exec("INSERT INTO schema_version VALUES ('x', 'y', 'z')");
    store.close();
    expect(openError(file()).message).toBe(
      `database ${file()} has a damaged schema_version table (schema version "x" is not a number): restore the file from a backup, or set storage.path to a new file`,
    );
  });

  it('with a damaged page is found by the check a writer runs at start', () => {
    const store = temp.open();
    store.db.exec(
      'CREATE TABLE filler (a); WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000) INSERT INTO filler SELECT randomblob(200) FROM n',
    );
    const pageSize = Number(store.db.pragma('page_size', { simple: true }));
    store.close();
    const bytes = fs.readFileSync(file());
    const page = Math.floor(bytes.length / pageSize) - 10;
    bytes.fill(0xab, page * pageSize, (page + 1) * pageSize);
    fs.writeFileSync(file(), bytes);

    const reopened = temp.open();
    expect(() => checkIntegrity(reopened.db, reopened.path)).toThrow(
      new RegExp(
        `^database ${file()} is damaged \\(SQLite's quick_check reports: .+\\): restore it from a backup, or set storage.path to a new file$`,
      ),
    );
    checkIntegrity(temp.open('other.db').db, 'other.db');
  });
});

describe('openStore in memory', () => {
  it('migrates a database that lives only in memory', () => {
    const store = openStore({ path: ':memory:', clock: new FakeClock() });
    expect(schemaVersion(store.db)).toBe(SCHEMA_VERSION);
    store.close();
  });
});

describe('opening beside a busy writer', () => {
  it('reads without waiting for the write lock the daemon holds', () => {
    const writer = temp.open();
    writer.db.exec('BEGIN IMMEDIATE');
    try {
      const reader = temp.open();
      expect(schemaVersion(reader.db)).toBe(SCHEMA_VERSION);
    } finally {
      writer.db.exec('ROLLBACK');
    }
  });
});
