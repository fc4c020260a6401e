import type BetterSqlite3 from 'better-sqlite3';
import { whenDiskFull } from './diskFull.js';
import type { Database } from './store.js';

const cache = new WeakMap<Database, Map<string, BetterSqlite3.Statement<unknown[]>>>();

/**
 * A prepared statement, compiled once per connection. Parameters are one object of named
 * values (`@name` in the SQL).
 */
export function statement<Params extends object, Row = unknown>(
  db: Database,
  sql: string,
): BetterSqlite3.Statement<[Params], Row> {
  let byText = cache.get(db);
  if (byText === undefined) {
    byText = new Map();
    cache.set(db, byText);
  }
  let prepared = byText.get(sql);
  if (prepared === undefined) {
    prepared = db.prepare(sql);
    reportDiskFull(prepared, db.name);
    byText.set(sql, prepared);
  }
  // The cache holds statements of every shape; the SQL text fixes this one's parameters and rows.
  return prepared as unknown as BetterSqlite3.Statement<[Params], Row>;
}

/** Makes the statement's SQLITE_FULL the store's one clear error (see whenDiskFull). */
function reportDiskFull(prepared: BetterSqlite3.Statement<unknown[]>, path: string): void {
  for (const name of ['run', 'get', 'all'] as const) {
    const original: (...args: unknown[]) => unknown = prepared[name].bind(prepared);
    Object.defineProperty(prepared, name, {
      value: (...args: unknown[]) => {
        try {
          return original(...args);
        } catch (error) {
          throw whenDiskFull(error, path);
        }
      },
    });
  }
}

/** A statement without parameters. */
export function plainStatement<Row = unknown>(
  db: Database,
  sql: string,
): BetterSqlite3.Statement<[], Row> {
  return statement<object, Row>(db, sql) as unknown as BetterSqlite3.Statement<[], Row>;
}

/** The row of an entry selected under the entry's own names: a field not set is SQL's NULL. */
export type RowOf<Entry> = {
  [Key in keyof Entry]: undefined extends Entry[Key]
    ? Exclude<Entry[Key], undefined> | null
    : Entry[Key];
};

/** The entry a row holds (see RowOf): each NULL a field not set. */
export function entryOf<Entry>(row: RowOf<Entry>): Entry {
  const fields = Object.entries(row).map(([key, value]) => [key, value ?? undefined]);
  return Object.fromEntries(fields) as Entry;
}
