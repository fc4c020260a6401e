import type { OwnWrite } from '../contract/index.js';
import { query, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

interface OwnWriteRow {
  fields: string;
  written_hash: string;
  base_fields: string;
  base_hash: string;
  editor: string | null;
}

/** Keeps the fingerprint of a write that succeeded; a later write to the record replaces it. */
export function recordOwnWrite(store: Store, resource: string, id: string, write: OwnWrite): void {
  statement<Record<string, string | null>>(
    store.db,
    `INSERT INTO own_writes (resource, _id, fields, written_hash, base_fields, base_hash, editor,
       written_at)
     VALUES (@resource, @id, @fields, @writtenHash, @baseFields, @baseHash, @editor, @now)
     ON CONFLICT (resource, _id) DO UPDATE SET fields = excluded.fields,
       written_hash = excluded.written_hash, base_fields = excluded.base_fields,
       base_hash = excluded.base_hash, editor = excluded.editor, written_at = excluded.written_at`,
  ).run({
    resource,
    id,
    fields: JSON.stringify(write.fields),
    writtenHash: write.writtenHash,
    baseFields: JSON.stringify(write.baseFields),
    baseHash: write.baseHash,
    editor: write.editor,
    now: storedNow(store),
  });
}

export function getOwnWrite(store: Store, resource: string, id: string): OwnWrite | undefined {
  const row = query<Record<string, string>, OwnWriteRow>(
    store.db,
    `SELECT fields, written_hash, base_fields, base_hash, editor FROM own_writes
     WHERE resource = @resource AND _id = @id`,
    {
      fields: 'text',
      written_hash: 'text',
      base_fields: 'text',
      base_hash: 'text',
      editor: 'text?',
    },
  ).get({ resource, id });
  if (row === undefined) return undefined;
  return {
    fields: JSON.parse(row.fields) as string[],
    writtenHash: row.written_hash,
    baseFields: JSON.parse(row.base_fields) as string[],
    baseHash: row.base_hash,
    editor: row.editor,
  };
}

/**
 * A create whose answer never came has no `_id` yet: its fingerprint is kept under the job that
 * sent it (`tried-create:<job id>`, where a record's `_id` would be; a create made after the
 * backup a database was restored from, under its message: `tried-create:restored-<message id>`),
 * until a pull lists the record it made (claimTriedCreate) or retention removes it with the
 * other fingerprints.
 */
const TRIED_CREATE = 'tried-create:';
// The keys from TRIED_CREATE up to the next character: a range scan of the primary key.
const TRIED_CREATE_END = 'tried-create;';

/** The fingerprint of a create whose outcome is unknown: the fields it sent and their hash. */
export interface TriedCreate {
  key: string;
  fields: readonly string[];
  writtenHash: string;
}

export function recordTriedCreate(
  store: Store,
  resource: string,
  sentBy: number | `restored-${string}`,
  tried: Omit<TriedCreate, 'key'>,
): void {
  recordOwnWrite(store, resource, `${TRIED_CREATE}${sentBy}`, {
    ...tried,
    baseFields: [],
    baseHash: '',
    editor: null,
  });
}

/** The creates of `resource` whose record no pull has listed yet; none, nearly always. */
export function triedCreatesOf(store: Store, resource: string): TriedCreate[] {
  return query<Record<string, string>, { _id: string; fields: string; written_hash: string }>(
    store.db,
    `SELECT _id, fields, written_hash FROM own_writes
     WHERE resource = @resource AND _id >= @from AND _id < @to`,
    { _id: 'text', fields: 'text', written_hash: 'text' },
  )
    .all({ resource, from: TRIED_CREATE, to: TRIED_CREATE_END })
    .map((row) => ({
      key: row._id,
      fields: JSON.parse(row.fields) as string[],
      writtenHash: row.written_hash,
    }));
}

/** The record a tried create made is known: its own fingerprint replaces the tried one. */
export function claimTriedCreate(
  store: Store,
  resource: string,
  tried: TriedCreate,
  id: string,
  write: OwnWrite,
): void {
  dropOwnWrite(store, resource, tried.key);
  recordOwnWrite(store, resource, id, write);
}

/** A create that got its answer after all (a later try): nothing is left to recognise. */
export function forgetTriedCreate(store: Store, resource: string, jobId: number): void {
  dropOwnWrite(store, resource, `${TRIED_CREATE}${jobId}`);
}

function dropOwnWrite(store: Store, resource: string, key: string): void {
  statement<Record<string, string>>(
    store.db,
    'DELETE FROM own_writes WHERE resource = @resource AND _id = @key',
  ).run({ resource, key });
}
