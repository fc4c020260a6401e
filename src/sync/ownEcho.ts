import { createHash } from 'node:crypto';
import type { OwnWrite } from '../store/index.js';

type Fields = Readonly<Record<string, unknown>>;

/** What the platform stamps on every change (`updated` in short answers); never compared. */
const STAMPS = new Set([
  '_id',
  'timestamp',
  'updatedAt',
  'updatedBy',
  'createdAt',
  'createdBy',
  'updated',
]);
/** Nested entries (care givers, series data) carry their own change stamp, renewed on writes. */
const NESTED_STAMPS = new Set(['timestamp', 'updatedAt', 'updatedBy']);

/**
 * JSON with object keys sorted at every depth and nested stamps left out. Built by assignment
 * into objects without a prototype (a `__proto__` key stays a key), not through entry arrays: it
 * runs once or twice for every write the daemon makes, and the text must never change, as the
 * hashes of it are stored (own_writes).
 */
function canonical(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(canonical);
  const sorted = Object.create(null) as Record<string, unknown>;
  // The default sort compares UTF-16 code units, as `<` does.
  for (const key of Object.keys(value).sort()) {
    const field = (value as Fields)[key];
    if (field !== undefined && !NESTED_STAMPS.has(key)) sorted[key] = canonical(field);
  }
  return sorted;
}

/** The hash of `fields`, each read by `valueOf`. */
function hashOf(valueOf: (field: string) => unknown, fields: readonly string[]): string {
  const picked = Object.create(null) as Record<string, unknown>;
  for (const field of fields) picked[field] = valueOf(field);
  return createHash('sha256')
    .update(JSON.stringify(canonical(picked)))
    .digest('hex');
}

const fieldOf = (record: Fields) => (field: string) => record[field];

/** null, '', [] or {}: what a platform fills in for a field a record did not have. */
const isEmpty = (value: unknown): boolean =>
  value === null ||
  value === '' ||
  (Array.isArray(value) && value.length === 0) ||
  (typeof value === 'object' && value !== null && Object.keys(value).length === 0);

/**
 * A field's value before our write, as `before` held it; a field it did not have that the
 * answer gives empty (the platform's `careGivers: []` on any write) counts as the answer's:
 * the platform filling in an empty value is no one's change.
 */
const baseValueOf = (before: Fields, answer: Fields) => (field: string) =>
  Object.hasOwn(before, field) || !isEmpty(answer[field]) ? before[field] : answer[field];

const editorOf = (record: Fields): string | null =>
  typeof record.updatedBy === 'string' && record.updatedBy !== '' ? record.updatedBy : null;

/**
 * The fingerprint of a write that succeeded. `written` is the body we sent; its values count as
 * the platform answered them (it may normalise them or give nested entries ids), else as sent
 * when the answer is short. So do the fields the platform `derived` from our write (its
 * `regionId` taken from the patient). The other fields the answer still carries count as
 * `before` held them: the record as we knew it before the write (the mirror); for a create, or
 * a record we never pulled, as the platform answered. Fields a PUT dropped are in neither set.
 */
export function fingerprintOf(
  written: Fields,
  answer: Fields,
  before: Fields = answer,
  derived: readonly string[] = [],
): OwnWrite {
  const madeByUs = (field: string) =>
    Object.hasOwn(written, field) || (derived.includes(field) && Object.hasOwn(answer, field));
  const fields = [...new Set([...Object.keys(written), ...derived])].filter(
    (field) => !STAMPS.has(field) && madeByUs(field),
  );
  const baseFields = Object.keys(answer).filter((f) => !STAMPS.has(f) && !fields.includes(f));
  return {
    fields,
    // The answer's value where it has the field, else the value sent.
    writtenHash: hashOf((f) => (Object.hasOwn(answer, f) ? answer[f] : written[f]), fields),
    baseFields,
    baseHash: hashOf(baseValueOf(before, answer), baseFields),
    editor: editorOf(answer),
  };
}

/**
 * Does the answer to our write carry someone else's change besides ours? Yes when a field we
 * did not write holds other than the record held before the write: a platform user's edit made
 * between our last pull and the write, which (with the platform leaving our own writes out of
 * our lists, spec document 1, rule 2) the answer may be the only version to show.
 */
export function carriesOthersChange(write: OwnWrite, answer: Fields): boolean {
  return hashOf(fieldOf(answer), write.baseFields) !== write.baseHash;
}

/**
 * Does the version carry a field, with a value, that neither our write nor the record as it
 * was held? Someone gave it that value: a change, even where the fingerprint could not name
 * the field (a write whose answer was lost knows only the record before it).
 */
function addsField(write: OwnWrite, pulled: Fields): boolean {
  const known = new Set([...write.fields, ...write.baseFields]);
  return Object.keys(pulled).some(
    (field) => !STAMPS.has(field) && !known.has(field) && !isEmpty(pulled[field]),
  );
}

/**
 * Is a pulled version only our own last write coming back? Yes when the fields we wrote hold
 * what we wrote, the other fields are as they were before our write (so a platform user's
 * change, even one made just before our write, still reaches the ERP), and the platform names
 * the editor it named in its answer to our write. Anything else is a genuine change.
 */
export function isOwnEcho(write: OwnWrite | undefined, pulled: Fields): boolean {
  if (write === undefined) return false;
  if (addsField(write, pulled)) return false;
  const editor = editorOf(pulled);
  if (write.editor !== null && editor !== null && editor !== write.editor) return false;
  if (hashOf(fieldOf(pulled), write.fields) !== write.writtenHash) return false;
  return hashOf(fieldOf(pulled), write.baseFields) === write.baseHash;
}
