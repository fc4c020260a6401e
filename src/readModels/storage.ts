import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config/index.js';
import { ARCHIVE } from '../erp/inbound/folders.js';
import { plainQuery } from '../store/statements.js';
import { autoVacuumOf, fileBytes, pragmaNumber, type AutoVacuum } from '../store/space.js';
import type { Store } from '../store/store.js';

/** The oldest item each retention rule still keeps (a stored time), undefined when none. */
const OLDEST: Readonly<Record<string, string>> = {
  runs: 'SELECT started_at AS at FROM runs ORDER BY id LIMIT 1',
  jobs: `SELECT min(updated_at) AS at FROM queue INDEXED BY queue_finished
    WHERE state IN ('done', 'superseded')`,
  versions: 'SELECT seen_at AS at FROM ledger ORDER BY seq LIMIT 1',
  inboxMessages: `SELECT min(processed_at) AS at FROM inbox_messages
    INDEXED BY inbox_messages_bodies WHERE body <> ''`,
  ownWrites: 'SELECT min(written_at) AS at FROM own_writes',
  endedKeys: `SELECT min(updated_at) AS at FROM mirror INDEXED BY mirror_reduced
    WHERE json ->> '$._reduced' IS NOT NULL`,
  quarantine: 'SELECT seen_at AS at FROM quarantine ORDER BY id LIMIT 1',
  deadLetters: 'SELECT dead_at AS at FROM dead_letters ORDER BY id LIMIT 1',
};

export interface StorageReport {
  database: string;
  databaseBytes: number;
  walBytes: number;
  pageSize: number;
  freePages: number;
  autoVacuum: AutoVacuum;
  /** Rows of every table. */
  rows: Record<string, number>;
  /** The oldest item of each kind still kept (see housekeeping/retention/), by its stored time. */
  oldest: Record<string, string | undefined>;
}

/**
 * Where the space goes, for `status --json`: the file and its WAL, rows per table, and how old
 * the oldest kept item of each kind is (retention working shows as a bounded age). Reads only;
 * counting a table reads its smallest index, about 0.1 s per million rows.
 */
export function storageReport(store: Store): StorageReport {
  const tables = plainQuery<{ name: string }>(
    store.db,
    `SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
     ORDER BY name`,
    { name: 'text' },
  ).all();
  const rows = Object.fromEntries(
    tables.map(({ name }) => [
      name,
      plainQuery<{ n: number }>(store.db, `SELECT count(*) AS n FROM "${name}"`, {
        n: 'number',
      }).get()?.n ?? 0,
    ]),
  );
  const oldest = Object.fromEntries(
    Object.entries(OLDEST).map(([item, sql]) => [
      item,
      plainQuery<{ at: string | null }>(store.db, sql, { at: 'text?' }).get()?.at ?? undefined,
    ]),
  );
  return {
    database: store.path,
    databaseBytes: fileBytes(store.path),
    walBytes: fileBytes(`${store.path}-wal`),
    pageSize: pragmaNumber(store, 'page_size'),
    freePages: pragmaNumber(store, 'freelist_count'),
    autoVacuum: autoVacuumOf(store),
    rows,
    oldest,
  };
}

/**
 * Where the space goes (issue #28's `storage` section of `status` and `/metrics`): the database
 * and its WAL as storageReport() reads them, the inbox's archive beside them, and the age of the
 * oldest item each retention rule keeps, which levels off once retention keeps up.
 */
export interface StorageFigures extends StorageReport {
  /** `<inbox>/.archive`, undefined without the file adapter's inbox. */
  archive: string | undefined;
  archiveBytes: number;
  /** Seconds from the oldest kept item of each kind to now; undefined when there is none. */
  oldestAgeSeconds: Record<string, number | undefined>;
}

/** The inbox whose archive counts, as the daemon prunes it: only the file adapter has one. */
export const inboxOf = (config: Config): string | undefined =>
  config.erp.adapter === 'file' ? config.erp.file.inbox : undefined;

/**
 * Bytes of every file below `folder`, 0 when it is not there. Asynchronous so that a large
 * archive walked for a scrape does not hold the daemon's event loop; a folder or file removed
 * while it is walked (pruning, a move) counts as gone. Any other failure is thrown: a folder
 * that cannot be read is not an empty one.
 */
export async function folderBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(goneAs([]));
  let bytes = 0;
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) bytes += await folderBytes(path);
    else if (entry.isFile()) bytes += (await stat(path).catch(goneAs(undefined)))?.size ?? 0;
  }
  return bytes;
}

/** Answers `value` for a file or folder that is not there (ENOENT), throws anything else. */
const goneAs =
  <T>(value: T) =>
  (error: unknown): T => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return value;
    throw error;
  };

function agesOf(oldest: StorageReport['oldest'], now: number): Record<string, number | undefined> {
  return Object.fromEntries(
    Object.entries(oldest).map(([item, at]) => [
      item,
      at === undefined ? undefined : Math.max(0, Math.round((now - Date.parse(at)) / 1000)),
    ]),
  );
}

/** The figures now: reads the database (see storageReport for its cost) and walks the archive. */
export async function storageFigures(
  store: Store,
  inbox: string | undefined,
): Promise<StorageFigures> {
  const report = storageReport(store);
  const archive = inbox === undefined ? undefined : join(inbox, ARCHIVE);
  return {
    ...report,
    archive,
    archiveBytes: archive === undefined ? 0 : await folderBytes(archive),
    oldestAgeSeconds: agesOf(report.oldest, store.clock.now().getTime()),
  };
}

/**
 * How long a scrape's figures serve the next scrapes. Counting rows reads each table's smallest
 * index (about 0.1 s per million rows): one scrape every 15 s of a large database would spend
 * that again and again on figures that move by the hour, so they are read at most this often.
 */
export const STORAGE_FIGURES_TTL_MS = 60_000;

/**
 * storageFigures() read at most once per `ttlMs` of the store's clock; scrapes meanwhile get the
 * last figures, and scrapes while a reading is under way share it.
 */
export function cachedStorageFigures(
  store: Store,
  inbox: string | undefined,
  ttlMs = STORAGE_FIGURES_TTL_MS,
): () => Promise<StorageFigures> {
  let last: { at: number; figures: Promise<StorageFigures> } | undefined;
  return () => {
    const now = store.clock.now().getTime();
    if (last === undefined || now - last.at >= ttlMs || now < last.at) {
      const figures = storageFigures(store, inbox);
      last = { at: now, figures };
      // A failed reading is not kept: the next scrape tries again.
      figures.catch(() => {
        if (last?.figures === figures) last = undefined;
      });
    }
    return last.figures;
  };
}
