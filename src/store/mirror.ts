import { stampSql } from '../contract/index.js';
import { type ColumnsOf, query, statement, values } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

/**
 * How deep the JSON the mirror and the ledger keep may nest: SQLite's `json_valid` (their CHECK)
 * refuses anything deeper than its JSON_MAX_DEPTH. A record nested deeper is quarantined.
 */
export const MAX_STORED_JSON_DEPTH = 1000;

/** A record as pulled: its `_id` and whatever else the platform sent. */
export interface MirrorRecord {
  readonly _id: string;
  readonly [field: string]: unknown;
}

/** The keys by which the ERP knows a record: patient, article, order, device. */
export type MirrorKey = 'customerId' | 'customerNumber' | 'salesId' | 'serialNumber';

const keyColumns: Record<MirrorKey, string> = {
  customerId: 'customer_id',
  customerNumber: 'customer_number',
  salesId: 'sales_id',
  serialNumber: 'serial_number',
};

export interface MirrorEntry {
  resource: string;
  id: string;
  version: string;
  record: MirrorRecord;
  updatedAt: string;
}

interface MirrorRow {
  resource: string;
  _id: string;
  version: string;
  json: string;
  updated_at: string;
}

const MIRROR_COLUMNS: ColumnsOf<MirrorRow> = {
  resource: 'text',
  _id: 'text',
  version: 'text',
  json: 'text',
  updated_at: 'text',
};

/**
 * Stores the latest known state of a record. A version older than the stored one is ignored
 * (versions compare as date-times by their stamps, as text when they are none; a second content
 * under a stamp replaces the first), so a late repeat of an old pull cannot overwrite a newer state. Returns whether the record was written. `json` is the
 * record's text when the caller has it already. The state it replaces moves to the ledger when a
 * delivery of that version may still run (the trigger in migrations/06-recordsOnce.ts).
 */
export function upsertMirror(
  store: Store,
  resource: string,
  record: MirrorRecord,
  version: string,
  json: string = JSON.stringify(record),
): boolean {
  return (
    statement<Record<string, string | null>>(
      store.db,
      `INSERT INTO mirror (resource, _id, version, customer_id, customer_number, sales_id,
         serial_number, json, updated_at)
       VALUES (@resource, @id, @version, @customerId, @customerNumber, @salesId, @serialNumber,
         @json, @now)
       ON CONFLICT (resource, _id) DO UPDATE SET version = excluded.version,
         customer_id = excluded.customer_id, customer_number = excluded.customer_number,
         sales_id = excluded.sales_id, serial_number = excluded.serial_number,
         json = excluded.json, updated_at = excluded.updated_at
       WHERE coalesce(
         unixepoch(${stampSql('excluded.version')}, 'subsec')
           >= unixepoch(${stampSql('mirror.version')}, 'subsec'),
         excluded.version >= mirror.version)`,
    ).run({
      resource,
      id: record._id,
      version,
      customerId: keyValue(record.customerId),
      customerNumber: keyValue(record.customerNumber),
      salesId: keyValue(record.salesId),
      serialNumber: keyValue(record.serialNumber),
      json,
      now: storedNow(store),
    }).changes === 1
  );
}

export function getMirror(store: Store, resource: string, id: string): MirrorEntry | undefined {
  const row = query<{ resource: string; id: string }, MirrorRow>(
    store.db,
    'SELECT resource, _id, version, json, updated_at FROM mirror WHERE resource = @resource AND _id = @id',
    MIRROR_COLUMNS,
  ).get({ resource, id });
  return row === undefined ? undefined : toEntry(row);
}

/**
 * The texts of the records of `resource` among `ids` that the mirror holds, by `_id`: one
 * statement for a pull's whole batch, which returns nothing for records first seen.
 */
export function mirroredTextsOf(
  store: Store,
  resource: string,
  ids: readonly string[],
): Map<string, string> {
  if (ids.length === 0) return new Map();
  const rows = query<{ resource: string; ids: string }, { id: string; json: string }>(
    store.db,
    `SELECT _id AS id, json FROM mirror
     WHERE resource = @resource AND _id IN (SELECT value FROM json_each(@ids))`,
    { id: 'text', json: 'text' },
  ).all({ resource, ids: JSON.stringify(ids) });
  return new Map(rows.map((row) => [row.id, row.json]));
}

/** The `_id` of every mirrored record of `resource` (no bodies read: a list may be long). */
export function mirrorIdsOf(store: Store, resource: string): string[] {
  return values<{ resource: string }, string>(
    store.db,
    'SELECT _id AS id FROM mirror WHERE resource = @resource',
    'text',
  ).all({ resource });
}

/** The version of the mirrored record, read alone; undefined when it is not in the mirror. */
export function getMirrorVersion(store: Store, resource: string, id: string): string | undefined {
  return query<{ resource: string; id: string }, { version: string }>(
    store.db,
    'SELECT version FROM mirror WHERE resource = @resource AND _id = @id',
    { version: 'text' },
  ).get({ resource, id })?.version;
}

/**
 * One top-level field of a mirrored record, read without parsing the whole record (which runs
 * to kilobytes): `{ value }`, the value undefined when the record lacks the field; undefined when
 * the record is not in the mirror.
 */
export function getMirrorField(
  store: Store,
  resource: string,
  id: string,
  field: string,
): { value: unknown } | undefined {
  const row = query<Record<string, string>, { value: string | null }>(
    store.db,
    'SELECT json -> @path AS value FROM mirror WHERE resource = @resource AND _id = @id',
    { value: 'text?' },
  ).get({ resource, id, path: `$.${JSON.stringify(field)}` });
  if (row === undefined) return undefined;
  return { value: row.value === null ? undefined : JSON.parse(row.value) };
}

/**
 * Records of a resource carrying an ERP key, most recently changed first. The platform promises
 * these keys unique, so more than one entry means the platform holds duplicates.
 */
export function findMirrorBy(
  store: Store,
  resource: string,
  field: MirrorKey,
  value: string,
): MirrorEntry[] {
  return query<{ resource: string; value: string }, MirrorRow>(
    store.db,
    `SELECT resource, _id, version, json, updated_at FROM mirror
     WHERE resource = @resource AND ${keyColumns[field]} = @value
     ORDER BY updated_at DESC, _id`,
    MIRROR_COLUMNS,
  )
    .all({ resource, value })
    .map(toEntry);
}

function keyValue(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  return typeof value === 'number' ? String(value) : null;
}

function toEntry(row: MirrorRow): MirrorEntry {
  return {
    resource: row.resource,
    id: row._id,
    version: row.version,
    record: JSON.parse(row.json) as MirrorRecord,
    updatedAt: row.updated_at,
  };
}
