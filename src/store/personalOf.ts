import { personalValues } from '../log/index.js';
import { statement } from './statements.js';
import type { Store } from './store.js';

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
      : statement<RecordRef, { json: string }>(
          store.db,
          `SELECT json FROM mirror WHERE resource = @resource AND _id = @id
           UNION ALL SELECT json FROM ledger
             WHERE resource = @resource AND _id = @id AND json IS NOT NULL
           UNION ALL SELECT json FROM mirror WHERE resource = 'patient' AND _id = (
             SELECT json ->> '$.patientId' FROM mirror WHERE resource = @resource AND _id = @id)`,
        ).all(record);
  const texts = [...records.map((row) => row.json), ...payloads];
  return personalValues(texts.map(parsedOrText));
}

function parsedOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
