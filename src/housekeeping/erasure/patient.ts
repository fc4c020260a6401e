import { PERSONAL_FIELDS, SHARED_PERSONAL_FIELDS } from '../../contract/personalFields.js';
import { errorMessage, SetupError } from '../../shared/errors.js';
import { query, values } from '../../store/statements.js';
import type { Store } from '../../store/store.js';

/**
 * The patient `forget` erases, as the database knows it: how the command line names it, its
 * records, and the values by which the texts that quote it are found (erasure.ts).
 */

/**
 * How the patient is named on the command line: `either` (`forget patient <id|customerId>`),
 * or as the `--id` or `--customer-id` flag says.
 */
export interface ErasureSubject {
  by: 'id' | 'customerId' | 'either';
  value: string;
}

/** The patient as known to the database: ids, the records naming it, the values to look for. */
export interface Patient {
  id: string;
  customerId: string | undefined;
  records: { resource: string; id: string }[];
  /**
   * The id and customerId (as JSON strings) and distinctive personal values: any text holding
   * one is the patient's.
   */
  needles: string[];
  /** The personal values alone: replaced inside texts that are kept (ids stay). */
  values: string[];
}

/** The personal fields whose values name one person (SHARED_PERSONAL_FIELDS do not). */
const SHARED: ReadonlySet<string> = new Set(SHARED_PERSONAL_FIELDS);
const DISTINCTIVE_FIELDS: ReadonlySet<string> = new Set(
  PERSONAL_FIELDS.filter((field) => !SHARED.has(field)),
);
/** Shorter values match too much text by chance ("Bad", "12"). */
const MIN_NEEDLE_LENGTH = 5;

/** Where a record names its patient (`metadata.patientId`: attachments). */
const PATIENT_REFERENCE_SQL = `(json ->> '$.patientId' = @id OR json ->> '$.metadata.patientId' = @id
  OR (resource IN ('patient', 'patientCustomerMapping') AND _id = @id))`;

/** The distinctive personal values anywhere in `value` (a parsed record or message). */
function personalValues(value: unknown, into: Set<string>, key = ''): void {
  if (Array.isArray(value)) {
    for (const item of value) personalValues(item, into, key);
  } else if (value !== null && typeof value === 'object') {
    for (const [field, inner] of Object.entries(value)) personalValues(inner, into, field);
  } else if (typeof value === 'string' && DISTINCTIVE_FIELDS.has(key)) {
    if (value.trim().length >= MIN_NEEDLE_LENGTH) into.add(value.trim());
  }
}

/**
 * A record's body, read to find the personal values texts may quote. One that cannot be read
 * stops the erasure before anything changed: what it holds of the patient could not be found.
 */
function bodyOf(row: { resource: string; _id: string; json: string }): unknown {
  try {
    return JSON.parse(row.json);
  } catch (error) {
    throw new SetupError(
      `forget: the mirror's record ${row.resource}:${row._id} is not readable JSON, so erasure cannot tell what of the patient it holds; nothing was erased`,
      [
        errorMessage(error),
        `the database was changed outside homecare-sync: restore it from a backup, or remove that row (DELETE FROM mirror WHERE resource = '${row.resource}' AND _id = '${row._id}'; the next pull stores the record again) and run forget again`,
      ],
      { cause: error, resource: row.resource, id: row._id },
    );
  }
}

/** The patient whose `_id` is `id`, when the database knows one. */
function byId(store: Store, id: string): string | undefined {
  const known = query<{ id: string }, { n: number }>(
    store.db,
    `SELECT count(*) AS n FROM mirror WHERE ${PATIENT_REFERENCE_SQL}`,
    { n: 'number' },
  ).get({ id });
  return (known?.n ?? 0) > 0 ? id : undefined;
}

/** The `_id` of the patient whose customerId is `customerId`, when the database knows one. */
function byCustomerId(store: Store, customerId: string): string | undefined {
  return query<{ customerId: string }, { _id: string }>(
    store.db,
    `SELECT _id FROM mirror WHERE resource IN ('patient', 'patientCustomerMapping')
       AND customer_id = @customerId ORDER BY resource = 'patient' DESC LIMIT 1`,
    { _id: 'text' },
  ).get({ customerId })?._id;
}

/** The platform's `_id`s are UUIDs; an ERP's customerId is its own number. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Who `subject` names: a patient's `_id`, none, or two patients (a customerId and an `_id`). */
export type NamedPatient =
  { id: string } | undefined | { ambiguous: { byCustomerId: string; byId: string } };

/**
 * The patient `subject` names. Named `either` way (`forget patient <id|customerId>`), a UUID is
 * an `_id` and anything else a customerId; when no patient has that customerId, an `_id` of
 * another form is taken too. A value that is one patient's customerId and another's `_id` is
 * named back, so that the wrong patient is never erased.
 */
export function namedPatient(store: Store, subject: ErasureSubject): NamedPatient {
  const { value } = subject;
  if (subject.by === 'id') return known(byId(store, value));
  if (subject.by === 'customerId') return known(byCustomerId(store, value));
  if (UUID.test(value)) return known(byId(store, value) ?? byCustomerId(store, value));
  const asCustomerId = byCustomerId(store, value);
  const asId = byId(store, value);
  if (asCustomerId !== undefined && asId !== undefined && asCustomerId !== asId) {
    return { ambiguous: { byCustomerId: asCustomerId, byId: asId } };
  }
  return known(asCustomerId ?? asId);
}

const known = (id: string | undefined): NamedPatient => (id === undefined ? undefined : { id });

export function findPatient(store: Store, id: string): Patient {
  const rows = query<{ id: string }, { resource: string; _id: string; json: string }>(
    store.db,
    `SELECT resource, _id, json FROM mirror WHERE ${PATIENT_REFERENCE_SQL} ORDER BY resource, _id`,
    { resource: 'text', _id: 'text', json: 'text' },
  ).all({ id });
  const customerId = query<{ id: string }, { customer_id: string }>(
    store.db,
    `SELECT customer_id FROM mirror WHERE resource IN ('patient', 'patientCustomerMapping')
       AND _id = @id AND customer_id IS NOT NULL LIMIT 1`,
    { customer_id: 'text' },
  ).get({ id })?.customer_id;
  const values = new Set<string>();
  for (const row of rows) personalValues(bodyOf(row), values);
  // What the ERP sent of the patient may hold values the platform's record does not.
  for (const body of patientMessages(store, customerId)) personalValues(JSON.parse(body), values);
  const ids = customerId === undefined ? [id] : [id, customerId];
  // An id is looked for as a JSON string ("1001"): a short customerId alone would also be found
  // inside other numbers and texts, and erase other patients' data.
  const quoted = ids.map((value) => JSON.stringify(value));
  return {
    id,
    customerId,
    records: rows.map((row) => ({ resource: row.resource, id: row._id })),
    needles: [...new Set([...quoted, ...values])],
    values: [...values].filter((value) => !ids.includes(value)),
  };
}

function patientMessages(store: Store, customerId: string | undefined): string[] {
  if (customerId === undefined) return [];
  return values<{ customerId: string }, string>(
    store.db,
    `SELECT body FROM inbox_messages WHERE kind = 'patient' AND body <> ''
       AND json_valid(body) AND body ->> '$.customerId' = @customerId`,
    'text',
  ).all({ customerId });
}
