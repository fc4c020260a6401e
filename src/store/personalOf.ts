import { maskPersonal, messageLabel, personalValues } from '../log/index.js';
import { inboxJobKey, inboxMessageOfKey } from './jobKeys.js';
import type { StoredJob } from './queueRows.js';
import { query } from './statements.js';
import type { Store } from './store.js';
import { subjectOfJob } from './subjects.js';

/** A record an output is about: a job's (by its entity key) or a traced one. */
export interface RecordRef {
  resource: string;
  id: string;
}

/**
 * The personal values an output about `record` may quote, longest first: those of the record
 * as the mirror holds it and as each kept version held it, of its patient (an order's
 * `patientId`), and of `payloads` (its jobs' JSON). A text about the record (an error, a reason)
 * may quote any of them in any form; maskPersonal replaces each wherever it stands.
 */
export function personalValuesOf(
  store: Store,
  record: RecordRef | undefined,
  payloads: readonly string[] = [],
): string[] {
  const records =
    record === undefined
      ? []
      : query<RecordRef, { json: string }>(
          store.db,
          `SELECT json FROM mirror WHERE resource = @resource AND _id = @id
           UNION ALL SELECT json FROM ledger
             WHERE resource = @resource AND _id = @id AND json IS NOT NULL
           UNION ALL SELECT json FROM mirror WHERE resource = 'patient' AND _id = (
             SELECT json ->> '$.patientId' FROM mirror WHERE resource = @resource AND _id = @id)`,
          { json: 'text' },
        ).all(record);
  const texts = [...records.map((row) => row.json), ...payloads];
  return personalValues(texts.map(parsedOrText));
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // Not JSON (a payload kept as text): no fields to name personal values by.
    return undefined;
  }
}

/** A job's idempotency key with the ERP file its message came from named by its label. */
export function labelledJobKey(key: string | undefined): string | undefined {
  const message = inboxMessageOfKey(key);
  return message === undefined
    ? key
    : inboxJobKey({ ...message, name: messageLabel(message.name) });
}

/**
 * A job (or what an output shows of one) masked: its payload's personal fields, its texts by
 * the personal values of its payload, its record and the record's patient (personalValuesOf),
 * the other side's answers by their structure, its message's file by its label. For every
 * output that shows a job: `queue list`, `queue show`, the console.
 */
export function maskedJob<T extends StoredJob>(store: Store, job: T): T {
  const known = personalValuesOf(store, subjectOfJob(store, job.id), [JSON.stringify(job.payload)]);
  const masked = maskPersonal(job, known);
  const key = labelledJobKey(masked.idempotencyKey);
  return key === undefined ? masked : { ...masked, idempotencyKey: key };
}
