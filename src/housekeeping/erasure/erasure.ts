import fs from 'node:fs';
import Sqlite from 'better-sqlite3';
import { errorMessage, SetupError } from '../../shared/errors.js';
import { listBackups } from '../backup/backup.js';
import { eraseInboxFiles } from './files.js';
import { findPatient, namedPatient, type ErasureSubject, type Patient } from './patient.js';
import {
  giveUpWork,
  hasWork,
  holdsNeedle,
  params,
  PATIENT_JOB_SQL,
  unresolvedWork,
  type UnresolvedWork,
} from './work.js';
import { currentOperator } from '../../store/operatorActions.js';
import { reducedRecord } from '../../store/reducedRecord.js';
import { compact } from '../../store/space.js';
import { query, statement } from '../../store/statements.js';
import { storedNow, storeOn, type Store } from '../../store/store.js';
import { transaction } from '../../store/transaction.js';

/**
 * Erasure of one patient's personal data on request (GDPR Art. 17, `homecare-sync forget`):
 * from every copy the daemon holds, down to the bytes of its files. What stays is what says that
 * something happened and keeps a record pulled again from being handed to the ERP as new: ids,
 * versions, content hashes, ERP keys, times, states.
 *
 * Two ways of finding the data. The patient's records (the patient, and every order, care
 * arrangement, note, device, attachment naming it) are found by their references and reduced to
 * ids and stamps. What holds copies as free text (queue payloads, dead letters, ERP messages,
 * quarantined records, error texts, inbox files) is found by the patient's id, customerId and
 * distinctive personal values, and emptied.
 */

export type { ErasureSubject, UnresolvedWork };

export interface ErasureOptions {
  /** Erase even while work for the patient is unresolved (that work is given up). */
  force: boolean;
  /** `erp.file.inbox` when the file adapter is used: its archive and error folders are searched. */
  inbox?: string | undefined;
}

/** What erasure found and emptied, by place; printed by `forget` and kept in `erasures`. */
export interface ErasureReport {
  patientId: string;
  customerId: string | undefined;
  /** `resource:_id` of every record reduced. */
  records: string[];
  removed: Record<string, number>;
  /** Inbox files removed (archive, error reports). */
  files: string[];
  /** Backups made by `homecare-sync backup` the data was erased from. */
  backups: string[];
  forced: boolean;
}

const ERASED = '[erased]';

/**
 * Reduces each of the patient's records in the mirror; their ledger rows keep hashes and the
 * names of the fields each version changed (names, never values: nothing personal).
 */
function eraseRecords(store: Store, patient: Patient, now: string): Record<string, number> {
  const reduce = statement<{ resource: string; id: string; json: string }>(
    store.db,
    'UPDATE mirror SET json = @json WHERE resource = @resource AND _id = @id',
  );
  const read = query<{ resource: string; id: string }, { json: string }>(
    store.db,
    'SELECT json FROM mirror WHERE resource = @resource AND _id = @id',
    { json: 'text' },
  );
  const ledger = statement<{ resource: string; id: string }>(
    store.db,
    'UPDATE ledger SET json = NULL WHERE resource = @resource AND _id = @id AND json IS NOT NULL',
  );
  let mirror = 0;
  let versions = 0;
  for (const record of patient.records) {
    const row = read.get(record);
    if (row !== undefined)
      mirror += reduce.run({ ...record, json: reducedRecord(row.json, now) }).changes;
    versions += ledger.run(record).changes;
  }
  return { mirror, ledgerBodies: versions };
}

/** Empties every free-text copy: job payloads and errors, dead letters, messages, quarantine. */
function eraseCopies(store: Store, patient: Patient, now: string): Record<string, number> {
  const p = params(patient);
  // Dead letters first: a job is found by its payload, which the next statement empties.
  const deadLetters = statement<typeof p>(
    store.db,
    `UPDATE dead_letters SET body_excerpt = NULL
     WHERE body_excerpt IS NOT NULL AND (job_id IN (SELECT id FROM queue WHERE ${PATIENT_JOB_SQL})
       OR ${holdsNeedle('body_excerpt')})`,
  ).run(p).changes;
  const erasedPayload = JSON.stringify({ _erased: now });
  const jobs = statement<typeof p & { payload: string }>(
    store.db,
    `UPDATE queue SET payload = @payload, last_error = NULL
     WHERE ${PATIENT_JOB_SQL} AND payload <> @payload`,
  ).run({ ...p, payload: erasedPayload }).changes;
  const needles = { needles: p.needles };
  const messages = statement<typeof needles>(
    store.db,
    `UPDATE inbox_messages SET body = '', error = NULL
     WHERE ${holdsNeedle('body')} OR ${holdsNeedle('error')}`,
  ).run(needles).changes;
  const quarantined = statement<typeof needles & { id: string }>(
    store.db,
    `UPDATE quarantine SET json = ''
     WHERE json <> '' AND (record_id = @id OR ${holdsNeedle('json')})`,
  ).run({ ...needles, id: patient.id }).changes;
  return {
    jobs,
    deadLetters,
    messages,
    quarantined,
    quotedValues: eraseQuotedValues(store, patient),
  };
}

/**
 * Texts that are kept but may quote a value: error texts (a platform's answer quoted in one),
 * and the keys and names built from an ERP file's name (`Arztbrief Zwiebelfisch.pdf`). Each
 * value becomes `[erased]`; the ids stay.
 */
const QUOTING_COLUMNS = [
  ['runs', 'error'],
  ['checkpoints', 'last_error'],
  ['queue', 'last_error'],
  ['queue', 'entity_key'],
  ['queue', 'idempotency_key'],
  ['inbox_messages', 'name'],
  ['inbox_messages', 'entity'],
  ['dead_letters', 'reason'],
  ['quarantine', 'reason'],
] as const;

function eraseQuotedValues(store: Store, patient: Patient): number {
  let changed = 0;
  for (const [table, column] of QUOTING_COLUMNS) {
    for (const value of patient.values) {
      changed += statement<{ value: string }>(
        store.db,
        `UPDATE ${table} SET ${column} = replace(${column}, @value, '${ERASED}')
         WHERE instr(${column}, @value) > 0`,
      ).run({ value }).changes;
    }
  }
  return changed;
}

/** The database part of erasure, in one transaction; `work` is given up when forced. */
function eraseInDatabase(
  store: Store,
  patient: Patient,
  work: UnresolvedWork,
): Record<string, number> {
  // Overwrites what a change frees with zeros instead of leaving it in the file's free space.
  store.db.pragma('secure_delete = ON');
  return transaction(store, () => {
    const now = storedNow(store);
    giveUpWork(store, work, now);
    return { ...eraseRecords(store, patient, now), ...eraseCopies(store, patient, now) };
  });
}

/**
 * The same erasure inside a backup (a database file `backup` wrote): opened directly, erased,
 * rebuilt by VACUUM so no free page keeps a byte, its WAL emptied. Its unresolved work is
 * erased too: a backup is a copy, not where work runs.
 */
function eraseInBackup(file: string, patient: Patient, clockOf: Store): boolean {
  if (!fs.existsSync(file)) return false;
  const backup = storeOn(new Sqlite(file), clockOf.clock, file);
  try {
    eraseInDatabase(backup, patient, unresolvedWork(backup, patient));
    compact(backup);
  } finally {
    backup.close();
  }
  return true;
}

function audit(store: Store, report: ErasureReport): void {
  const row = {
    subject: `patient:${report.patientId}`,
    records: JSON.stringify(report.records),
    removed: JSON.stringify({
      ...report.removed,
      files: report.files.length,
      backups: report.backups.length,
    }),
    forced: report.forced ? 1 : 0,
    ...currentOperator(),
    at: storedNow(store),
  };
  transaction(store, () =>
    statement<typeof row>(
      store.db,
      `INSERT INTO erasures (subject, records, removed, forced, os_user, host, at)
       VALUES (@subject, @records, @removed, @forced, @osUser, @host, @at)`,
    ).run(row),
  );
}

export type ErasureOutcome =
  | { outcome: 'unknown' }
  /** The value is one patient's customerId and another's `_id`: say which. */
  | { outcome: 'ambiguous'; byCustomerId: string; byId: string }
  | { outcome: 'refused'; patientId: string; work: UnresolvedWork }
  | { outcome: 'erased'; report: ErasureReport };

/**
 * Erases the patient's personal data from the database, the inbox's archive and every backup
 * `backup` made, then rebuilds the database (VACUUM) and empties its WAL, so neither free pages
 * nor old WAL frames keep a byte of it. Refuses, changing nothing, while work for the patient is
 * unresolved, unless forced. Run it holding the writer lock (no daemon on the file): the VACUUM
 * needs the file to itself, and a running pull could write the data again meanwhile.
 */
export function erasePatient(
  store: Store,
  subject: ErasureSubject,
  options: ErasureOptions,
): ErasureOutcome {
  const named = namedPatient(store, subject);
  if (named === undefined) return { outcome: 'unknown' };
  if ('ambiguous' in named) return { outcome: 'ambiguous', ...named.ambiguous };
  const { id } = named;
  const patient = findPatient(store, id);
  const work = unresolvedWork(store, patient);
  if (hasWork(work) && !options.force) return { outcome: 'refused', patientId: id, work };
  const removed = eraseInDatabase(store, patient, work);
  const files = options.inbox === undefined ? [] : eraseInboxFiles(options.inbox, patient);
  const backups = listBackups(store)
    .map((backup) => backup.path)
    .filter((file) => eraseInBackup(file, patient, store));
  const report: ErasureReport = {
    patientId: id,
    customerId: patient.customerId,
    records: patient.records.map((record) => `${record.resource}:${record.id}`),
    removed,
    files,
    backups,
    forced: hasWork(work),
  };
  audit(store, report);
  rebuild(store, report.patientId);
  return { outcome: 'erased', report };
}

/**
 * The VACUUM that takes the erased bytes out of free pages and the WAL. The tables are erased
 * already when it fails (a full disk, most likely); running `forget` again finds the patient by
 * its kept ids and rebuilds then.
 */
function rebuild(store: Store, patientId: string): void {
  try {
    compact(store);
  } catch (error) {
    throw new SetupError(
      `forget: patient ${patientId} is erased from the tables, but ${store.path} could not be rebuilt, so free pages may still hold the data`,
      [
        `${errorMessage(error)}`,
        'free disk space of about the database size, then run the same forget command again',
      ],
      { cause: error },
    );
  }
}
