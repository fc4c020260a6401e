import { createHash } from 'node:crypto';
import { liveEntries } from './nestedEntries.js';
import { NESTED_STAMP_FIELDS, STAMP_FIELDS } from './stamps.js';

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

type Fields = Readonly<Record<string, unknown>>;

const STAMPS: ReadonlySet<string> = new Set(STAMP_FIELDS);
const NESTED_STAMPS: ReadonlySet<string> = new Set(NESTED_STAMP_FIELDS);

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

/**
 * A field's value in `record`. A fingerprint of a write whose answer never came names the
 * leaves it sent by JSON pointer (`/packagingUnits/0/unit`, triedWriteOf); one of an answer
 * names top-level fields.
 */
const fieldOf = (record: Fields) => (field: string) =>
  field.startsWith('/') ? leafAt(record, field) : record[field];

/** The top-level field a fingerprint's field names. */
const topFieldOf = (field: string): string | undefined =>
  field.startsWith('/') ? stepsOf(field)[0] : field;

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
  const known = new Set([...write.fields.map(topFieldOf), ...write.baseFields]);
  return Object.keys(pulled).some(
    (field) => !STAMPS.has(field) && !known.has(field) && !isEmpty(pulled[field]),
  );
}

/** A write whose answer never came names what it sent by leaves (triedWriteOf). */
const isTried = (write: OwnWrite): boolean => write.fields.some((field) => field.startsWith('/'));

/**
 * The other fields of a pulled version, for the comparison with the record before our write.
 * After a write whose answer never came, a field the version lacks counts as the record before
 * it held it (`before`, read only then): a PUT drops what it did not send, and only the answer
 * would have told which fields those are. No one else removes a field: a PATCH sets it null.
 */
function baseOf(write: OwnWrite, pulled: Fields, before?: () => Fields | undefined) {
  if (before === undefined || !isTried(write)) return fieldOf(pulled);
  return (field: string) => (Object.hasOwn(pulled, field) ? pulled[field] : before()?.[field]);
}

/**
 * Is a pulled version only our own last write coming back? Yes when the fields we wrote hold
 * what we wrote, the other fields are as they were before our write (so a platform user's
 * change, even one made just before our write, still reaches the ERP), and the platform names
 * the editor it named in its answer to our write. Anything else is a genuine change. `before`:
 * the record as the mirror still holds it, for a write whose answer never came (baseOf).
 */
export function isOwnEcho(
  write: OwnWrite | undefined,
  pulled: Fields,
  before?: () => Fields | undefined,
): boolean {
  if (write === undefined) return false;
  if (addsField(write, pulled)) return false;
  const editor = editorOf(pulled);
  if (write.editor !== null && editor !== null && editor !== write.editor) return false;
  if (hashOf(fieldOf(pulled), write.fields) !== write.writtenHash) return false;
  return hashOf(baseOf(write, pulled, before), write.baseFields) === write.baseHash;
}

/** A JSON pointer (RFC 6901) to `path`: one string per leaf, whatever its keys hold. */
const pointerOf = (path: readonly (string | number)[]): string =>
  path.map((step) => `/${String(step).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** A pointer's suffix that names the length of the array it points to. */
const LENGTH = '#length';

/** The keys a pointer steps through. */
const stepsOf = (pointer: string): string[] =>
  (pointer.endsWith(LENGTH) ? pointer.slice(0, -LENGTH.length) : pointer)
    .split('/')
    .slice(1)
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));

/**
 * The leaves of what a write sent, by pointer, with each list's length: what the record it made
 * must hold. Objects inside are left open (the platform gives nested entries an `_id`,
 * `archived`); lists are read by their live entries (src/contract/nestedEntries.ts), and one
 * holding more or fewer is another value than ours.
 */
function leavesOf(
  value: unknown,
  path: (string | number)[] = [],
  leaves = new Map<string, unknown>(),
) {
  if (Array.isArray(value)) {
    const live = liveEntries(value);
    leaves.set(`${pointerOf(path)}${LENGTH}`, live.length);
    live.forEach((item, index) => leavesOf(item, [...path, index], leaves));
  } else if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    for (const [key, item] of Object.entries(value)) {
      if (path.length > 0 || !STAMPS.has(key)) leavesOf(item, [...path, key], leaves);
    }
  } else {
    leaves.set(pointerOf(path), value);
  }
  return leaves;
}

/** The value at `pointer` (or the array's length at `…#length`) in `record`. */
function leafAt(record: Fields, pointer: string): unknown {
  let value: unknown = record;
  for (const step of stepsOf(pointer)) {
    if (Array.isArray(value)) value = liveEntries(value)[Number(step)];
    else value = value !== null && typeof value === 'object' ? (value as Fields)[step] : undefined;
  }
  if (!pointer.endsWith(LENGTH)) return value;
  return Array.isArray(value) ? liveEntries(value).length : undefined;
}

/**
 * The fingerprint of a write whose answer never came: the leaves of what it `sent`, as sent.
 * The platform's version of the record holds them, though it may add to the objects inside.
 */
export function triedWriteOf(sent: Fields): Pick<OwnWrite, 'fields' | 'writtenHash'> {
  const leaves = leavesOf(sent);
  const fields = [...leaves.keys()];
  return { fields, writtenHash: hashOf((pointer) => leaves.get(pointer), fields) };
}

/**
 * The fingerprint a pulled record takes when it is the one a tried create made: it holds every
 * value the create sent (a platform user's change since would show, and be handed over), so
 * the version is our create's answer, listed back.
 */
export function madeByTriedCreate(
  tried: Pick<OwnWrite, 'fields' | 'writtenHash'>,
  pulled: Fields,
): OwnWrite | undefined {
  if (hashOf(fieldOf(pulled), tried.fields) !== tried.writtenHash) return undefined;
  const sent = new Set(tried.fields.map(topFieldOf));
  const written = Object.fromEntries(
    Object.keys(pulled)
      .filter((field) => sent.has(field))
      .map((field) => [field, pulled[field]]),
  );
  return fingerprintOf(written, pulled);
}
