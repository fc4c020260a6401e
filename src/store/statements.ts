import type BetterSqlite3 from 'better-sqlite3';
import { whenDiskFull } from './diskFull.js';
import type { Database } from './store.js';

type Prepared = BetterSqlite3.Statement<unknown[], unknown>;

const cache = new WeakMap<Database, Map<string, Prepared>>();

/**
 * What a result column holds as better-sqlite3 gives it: text, a number (INTEGER or REAL), `?`
 * where it may be NULL; `any` for a column of values of several kinds.
 */
export type Column = 'text' | 'text?' | 'number' | 'number?' | 'any';

/** The column that holds a `Value` (see Column). */
export type ColumnOf<Value> = [Value] extends [string]
  ? 'text'
  : [Value] extends [number]
    ? 'number'
    : [Value] extends [string | null]
      ? 'text?'
      : [Value] extends [number | null]
        ? 'number?'
        : 'any';

type Optional<Row> = {
  [Name in keyof Row]-?: undefined extends Row[Name] ? Name : never;
}[keyof Row];

/**
 * The columns of a row of type `Row`, each named with what it holds: the compiler holds them to
 * `Row`. A field `Row` leaves optional is a column only some statements answer: named where
 * it is answered.
 */
export type ColumnsOf<Row> = {
  readonly [Name in Exclude<keyof Row, Optional<Row>>]-?: ColumnOf<Row[Name]>;
} & { readonly [Name in Optional<Row>]?: ColumnOf<Exclude<Row[Name], undefined>> };

/** The type SQLite declares for a table's column, by what it holds (STRICT tables keep to it). */
const DECLARED: Readonly<Record<string, readonly Column[]>> = {
  TEXT: ['text', 'text?', 'any'],
  INTEGER: ['number', 'number?', 'any'],
  REAL: ['number', 'number?', 'any'],
};

/** A statement whose rows are not what its code says: a fault of ours, found at its first use. */
export class RowShapeError extends Error {
  constructor(sql: string, problem: string) {
    super(`store: ${problem}, in: ${sql.replace(/\s+/g, ' ').trim()}`);
    this.name = 'RowShapeError';
  }
}

/**
 * The row's columns against those declared: each declared one answered, and where it is a
 * table's column, of the type the table declares.
 */
function checkColumns(
  prepared: Prepared,
  columns: Readonly<Record<string, Column | undefined>>,
): void {
  const found = prepared.columns();
  const names = new Set(found.map((column) => column.name));
  const missing = Object.keys(columns).filter((name) => !names.has(name));
  if (missing.length > 0) {
    throw new RowShapeError(
      prepared.source,
      `its code reads ${missing.join(', ')}, which the statement does not answer`,
    );
  }
  for (const { name, type } of found) {
    const allowed = type === null ? undefined : DECLARED[type.toUpperCase()];
    const column = columns[name];
    if (allowed !== undefined && column !== undefined && !allowed.includes(column)) {
      throw new RowShapeError(
        prepared.source,
        `${name} is ${type ?? ''}, its code reads ${column}`,
      );
    }
  }
}

/** The statement for `sql` on this connection; `pluck`: one that answers each row's one value. */
function prepared(db: Database, sql: string, pluck = false): Prepared {
  let byText = cache.get(db);
  if (byText === undefined) {
    byText = new Map();
    cache.set(db, byText);
  }
  const key = pluck ? `pluck\n${sql}` : sql;
  let made = byText.get(key);
  if (made === undefined) {
    made = db.prepare(sql);
    if (pluck) made.pluck();
    reportDiskFull(made, db.name);
    byText.set(key, made);
  }
  return made;
}

/** The statements whose columns were checked: the SQL fixes them, so once is enough. */
const checked = new WeakSet<Prepared>();

/**
 * Holds the statement to `columns` at its first use (checkColumns): from then on its rows are
 * `Row`s. The compiler cannot read SQL; this check is what lets it take the rows as typed.
 */
function checkRows<Bind extends unknown[], Row>(
  made: Prepared,
  columns: ColumnsOf<Row>,
): asserts made is BetterSqlite3.Statement<Bind, Row> {
  if (checked.has(made)) return;
  checkColumns(made, columns);
  checked.add(made);
}

/** A query of one column whose rows are its values (pluck): the column checked as checkRows does. */
function checkValues<Bind extends unknown[], Value>(
  made: Prepared,
  column: ColumnOf<Value>,
): asserts made is BetterSqlite3.Statement<Bind, Value> {
  if (checked.has(made)) return;
  const [only, ...more] = made.columns();
  if (only === undefined || more.length > 0) {
    throw new RowShapeError(made.source, 'its code reads one column, the statement answers more');
  }
  checkColumns(made, { [only.name]: column });
  checked.add(made);
}

/**
 * A prepared statement, compiled once per connection, for what it changes. Parameters are one
 * object of named values (`@name` in the SQL). A statement whose rows are read is a `query`.
 */
export function statement<Params extends object>(
  db: Database,
  sql: string,
): BetterSqlite3.Statement<[Params], unknown> {
  return prepared(db, sql);
}

/**
 * A prepared statement whose rows are read: `columns` names each column of its rows and what it
 * holds (the compiler holds them to `Row`), checked against the statement when it is prepared.
 */
export function query<Params extends object, Row>(
  db: Database,
  sql: string,
  columns: ColumnsOf<Row>,
): BetterSqlite3.Statement<[Params], Row> {
  const made = prepared(db, sql);
  checkRows<[Params], Row>(made, columns);
  return made;
}

/**
 * A query of one column whose rows are read as that column's values (`SELECT _id FROM …` answers
 * ids): `column` says what it holds, checked as a query's columns are.
 */
export function values<Params extends object, Value>(
  db: Database,
  sql: string,
  column: ColumnOf<Value>,
): BetterSqlite3.Statement<[Params], Value> {
  const made = prepared(db, sql, true);
  checkValues<[Params], Value>(made, column);
  return made;
}

/** Makes the statement's SQLITE_FULL the store's one clear error (see whenDiskFull). */
function reportDiskFull(prepared: Prepared, path: string): void {
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

/** A statement without parameters (see statement). */
export function plainStatement(db: Database, sql: string): BetterSqlite3.Statement<[], unknown> {
  return prepared(db, sql);
}

/** A query without parameters (see query). */
export function plainQuery<Row>(
  db: Database,
  sql: string,
  columns: ColumnsOf<Row>,
): BetterSqlite3.Statement<[], Row> {
  const made = prepared(db, sql);
  checkRows<[], Row>(made, columns);
  return made;
}

/** The row of an entry selected under the entry's own names: a field not set is SQL's NULL. */
export type RowOf<Entry> = {
  [Key in keyof Entry]: undefined extends Entry[Key]
    ? Exclude<Entry[Key], undefined> | null
    : Entry[Key];
};

/**
 * The SELECT list of a row of an entry (RowOf) from its columns: each column under the entry's
 * name (`received_at AS receivedAt`).
 */
export function selectList(columns: object): string {
  const named = Object.keys(columns).map((name) => {
    const column = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    return column === name ? name : `${column} AS ${name}`;
  });
  return named.join(', ');
}

/** The entry a row holds (see RowOf): each NULL a field not set. */
export function entryOf<Entry>(row: RowOf<Entry>): Entry {
  const fields = Object.entries(row).map(([key, value]) => [key, value ?? undefined]);
  return Object.fromEntries(fields) as Entry;
}
