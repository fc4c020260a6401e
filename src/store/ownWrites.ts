import { statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

/**
 * The fingerprint of the daemon's last write to one record: which fields it wrote and the hash
 * of their values as the platform took them; which other fields the record kept and the hash of
 * them as the record was known before the write; who the platform named as the editor.
 */
export interface OwnWrite {
  fields: readonly string[];
  writtenHash: string;
  baseFields: readonly string[];
  baseHash: string;
  editor: string | null;
}

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
  const row = statement<Record<string, string>, OwnWriteRow>(
    store.db,
    `SELECT fields, written_hash, base_fields, base_hash, editor FROM own_writes
     WHERE resource = @resource AND _id = @id`,
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
