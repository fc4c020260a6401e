import { RESOURCE_NAMES } from '../contract/index.js';
import { query, type ColumnsOf } from './statements.js';
import type { Store } from './store.js';

/**
 * The record an output is about, found by the keys the mirror and the queue keep: by a mirror
 * column (its `_id` and the ERP's keys), by a queue job's entity key. For masking (the record
 * whose personal values a job's texts may quote) and for the trace's search (src/trace/).
 */

/** A record, and the queue's entity keys jobs about it carry. */
export interface RecordSubject {
  resource: string;
  id: string;
  entityKeys: string[];
}

/** The mirror's key columns, each as the platform or the ERP names it. */
export const MIRROR_KEY_COLUMNS = {
  _id: '_id',
  salesId: 'sales_id',
  customerId: 'customer_id',
  customerNumber: 'customer_number',
  serialNumber: 'serial_number',
} as const;

export type MirrorKeyName = keyof typeof MIRROR_KEY_COLUMNS;

/**
 * The index each key is looked up by, named: without statistics SQLite may rather read a whole
 * resource through the primary key than take a partial index (store/migrations/).
 */
export const MIRROR_KEY_INDEXES: Readonly<Record<MirrorKeyName, string>> = {
  _id: 'sqlite_autoindex_mirror_1',
  salesId: 'mirror_sales_id',
  customerId: 'mirror_customer_id',
  customerNumber: 'mirror_customer_number',
  serialNumber: 'mirror_serial_number',
};

/** A mirrored record's keys, as subjectOfRow reads them. */
export interface MirrorKeys {
  resource: string;
  _id: string;
  customer_id: string | null;
  customer_number: string | null;
  sales_id: string | null;
  serial_number: string | null;
}

export const MIRROR_KEYS_COLUMNS: ColumnsOf<MirrorKeys> = {
  resource: 'text',
  _id: 'text',
  customer_id: 'text?',
  customer_number: 'text?',
  sales_id: 'text?',
  serial_number: 'text?',
};

/** The columns subjectOfRow reads, for the trace's own look-ups of the mirror. */
export const MIRROR_KEYS = Object.keys(MIRROR_KEYS_COLUMNS).join(', ');

/**
 * The queue's entity keys for a record: `<resource>:<_id>`, and the ERP's own key where the
 * inbox keys a kind by it (src/queue/jobs.ts): a patient's customerId, an article's
 * customerNumber, a device's serialNumber, an ERP order's salesId, an order status by salesId
 * before the order was known.
 */
export function subjectOfRow(row: MirrorKeys): RecordSubject {
  const keys = [`${row.resource}:${row._id}`];
  const own = {
    patient: row.customer_id,
    article: row.customer_number,
    device: row.serial_number,
    erpOrder: row.sales_id,
  }[row.resource];
  if (own !== undefined && own !== null) keys.push(`${row.resource}:${own}`);
  if ((row.resource === 'singleOrder' || row.resource === 'directOrder') && row.sales_id !== null) {
    keys.push(`${row.resource}:salesId:${row.sales_id}`);
  }
  return { resource: row.resource, id: row._id, entityKeys: keys };
}

/**
 * The mirrored records whose key `name` is `value`. Looked up per resource, so each lookup
 * takes the mirror's key or one of its indexes.
 */
export function mirroredBy(store: Store, name: MirrorKeyName, value: string): RecordSubject[] {
  return query<{ value: string; resources: string }, MirrorKeys>(
    store.db,
    `SELECT ${MIRROR_KEYS} FROM mirror INDEXED BY ${MIRROR_KEY_INDEXES[name]}
     WHERE resource IN (SELECT value FROM json_each(@resources))
       AND ${MIRROR_KEY_COLUMNS[name]} = @value AND ${MIRROR_KEY_COLUMNS[name]} IS NOT NULL
     ORDER BY resource, _id`,
    MIRROR_KEYS_COLUMNS,
  )
    .all({ value, resources: JSON.stringify(RESOURCE_NAMES) })
    .map(subjectOfRow);
}

/** The record an entity key names (`singleOrder:<_id>`, `patient:<customerId>` …). */
export function subjectOfEntity(store: Store, key: string): RecordSubject {
  const [resource = '', ...rest] = key.split(':');
  const id = rest.join(':');
  const names = Object.keys(MIRROR_KEY_COLUMNS) as MirrorKeyName[];
  const found = names
    .flatMap((name) => mirroredBy(store, name, id))
    .find((subject) => subject.resource === resource);
  return found ?? { resource, id, entityKeys: [key] };
}

/** The record a job is about, by its entity key; undefined for a job not in the queue. */
export function subjectOfJob(store: Store, jobId: number): RecordSubject | undefined {
  const job = query<{ id: number }, { entity_key: string }>(
    store.db,
    'SELECT entity_key FROM queue WHERE id = @id',
    { entity_key: 'text' },
  ).get({ id: jobId });
  return job === undefined ? undefined : subjectOfEntity(store, job.entity_key);
}
