import type { Patient } from './patient.js';
import { query, statement, values } from '../../store/statements.js';
import type { Store } from '../../store/store.js';

/**
 * The patient's work still under way (`forget` refuses while there is any, `--force` gives it
 * up), and how the patient's jobs and texts are found: by entity key, or by a needle (an id, a
 * distinctive personal value) in the text.
 */

/** Work for the patient not yet done, by what it is; `forget` refuses while there is any. */
export interface UnresolvedWork {
  jobs: number[];
  versions: string[];
  messages: number[];
}

/** SQL true when `column` holds any of the needles (a JSON array in @needles). */
export const holdsNeedle = (column: string) =>
  `EXISTS (SELECT 1 FROM json_each(@needles) WHERE instr(${column}, json_each.value) > 0)`;

const entityKeys = (patient: Patient): string[] => [
  ...patient.records.map((record) => `${record.resource}:${record.id}`),
  ...(patient.customerId === undefined ? [] : [`patient:${patient.customerId}`]),
];

/** The patient's jobs: by their entity, or by a payload naming the patient. */
export const PATIENT_JOB_SQL = `(entity_key IN (SELECT value FROM json_each(@keys))
  OR ${holdsNeedle('payload')} OR ${holdsNeedle('entity_key')})`;

export function params(patient: Patient): { keys: string; needles: string } {
  return { keys: JSON.stringify(entityKeys(patient)), needles: JSON.stringify(patient.needles) };
}

/** Work for the patient still under way: it would write the data again, or need it. */
export function unresolvedWork(store: Store, patient: Patient): UnresolvedWork {
  const jobs = values<{ keys: string; needles: string }, number>(
    store.db,
    `SELECT id FROM queue WHERE ${PATIENT_JOB_SQL} AND (state IN ('pending', 'running')
       OR (state = 'dead' AND EXISTS (SELECT 1 FROM dead_letters
         WHERE job_id = queue.id AND resolved_at IS NULL)))
     ORDER BY id`,
    'number',
  ).all(params(patient));
  const versions = query<{ records: string }, { key: string }>(
    store.db,
    `SELECT resource || ':' || _id || ':' || version AS key FROM ledger
     WHERE resource || ':' || _id IN (SELECT value FROM json_each(@records))
       AND delivered_at IS NULL
     ORDER BY seq`,
    { key: 'text' },
  )
    .all({ records: JSON.stringify(patient.records.map((r) => `${r.resource}:${r.id}`)) })
    .map((row) => row.key);
  const messages = values<{ needles: string }, number>(
    store.db,
    `SELECT id FROM inbox_messages WHERE state = 'received' AND ${holdsNeedle('body')} ORDER BY id`,
    'number',
  ).all({ needles: JSON.stringify(patient.needles) });
  return { jobs, versions, messages };
}

export const hasWork = (work: UnresolvedWork): boolean =>
  work.jobs.length + work.versions.length + work.messages.length > 0;

/**
 * Gives the patient's unresolved work up (`--force`): pending and running jobs are superseded
 * with no successor, open dead letters dropped, ERP messages not yet handled rejected. Their
 * texts are erased next, so none of it could run anyway.
 */
export function giveUpWork(store: Store, work: UnresolvedWork, now: string): void {
  const jobs = { ids: JSON.stringify(work.jobs), now };
  statement<typeof jobs>(
    store.db,
    `UPDATE queue SET state = 'superseded', lease_until = NULL, updated_at = @now
     WHERE id IN (SELECT value FROM json_each(@ids)) AND state IN ('pending', 'running')`,
  ).run(jobs);
  statement<typeof jobs>(
    store.db,
    `UPDATE dead_letters SET resolved_at = @now, resolution = 'dropped'
     WHERE job_id IN (SELECT value FROM json_each(@ids)) AND resolved_at IS NULL`,
  ).run(jobs);
  const messages = { ids: JSON.stringify(work.messages), now };
  statement<typeof messages>(
    store.db,
    `UPDATE inbox_messages SET state = 'rejected', processed_at = @now,
       error = 'given up: its patient was erased (forget --force)'
     WHERE id IN (SELECT value FROM json_each(@ids)) AND state = 'received'`,
  ).run(messages);
}
