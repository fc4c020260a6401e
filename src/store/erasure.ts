import fs from 'node:fs';
import path from 'node:path';
import Sqlite from 'better-sqlite3';
import { PERSONAL_FIELDS } from '../contract/personalFields.js';
import { errorMessage, SetupError } from '../shared/errors.js';
import { listBackups } from './backup.js';
import { currentOperator } from './operatorActions.js';
import { reducedRecord } from './retention.js';
import { compact } from './space.js';
import { plainStatement, statement } from './statements.js';
import { jobsQueued, storedNow, type Store } from './store.js';
import { transaction } from './transaction.js';

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

/** How the patient is named on the command line. */
export interface ErasureSubject {
  by: 'id' | 'customerId';
  value: string;
}

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

/** Work for the patient not yet done, by what it is; `forget` refuses while there is any. */
export interface UnresolvedWork {
  jobs: number[];
  versions: string[];
  messages: number[];
}

/** The patient as known to the database: ids, the records naming it, the values to look for. */
interface Patient {
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

/**
 * Personal fields whose values name one person: a first name, a postal code or a city alone are
 * shared by many, and emptying every text holding them would erase other patients' work.
 */
const COMMON_FIELDS: ReadonlySet<string> = new Set(['firstName', 'name', 'postalCode', 'city']);
const DISTINCTIVE_FIELDS: ReadonlySet<string> = new Set(
  PERSONAL_FIELDS.filter((field) => !COMMON_FIELDS.has(field)),
);
/** Shorter values match too much text by chance ("Bad", "12"). */
const MIN_NEEDLE_LENGTH = 5;

const ERASED = '[erased]';

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

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The patient's `_id` from how it was named; undefined when the database knows no such patient. */
function patientId(store: Store, subject: ErasureSubject): string | undefined {
  if (subject.by === 'id') {
    const known = statement<{ id: string }, { n: number }>(
      store.db,
      `SELECT count(*) AS n FROM mirror WHERE ${PATIENT_REFERENCE_SQL}`,
    ).get({ id: subject.value });
    return (known?.n ?? 0) > 0 ? subject.value : undefined;
  }
  return statement<{ customerId: string }, { _id: string }>(
    store.db,
    `SELECT _id FROM mirror WHERE resource IN ('patient', 'patientCustomerMapping')
       AND customer_id = @customerId ORDER BY resource = 'patient' DESC LIMIT 1`,
  ).get({ customerId: subject.value })?._id;
}

function findPatient(store: Store, id: string): Patient {
  const rows = statement<{ id: string }, { resource: string; _id: string; json: string }>(
    store.db,
    `SELECT resource, _id, json FROM mirror WHERE ${PATIENT_REFERENCE_SQL} ORDER BY resource, _id`,
  ).all({ id });
  const customerId = statement<{ id: string }, { customer_id: string }>(
    store.db,
    `SELECT customer_id FROM mirror WHERE resource IN ('patient', 'patientCustomerMapping')
       AND _id = @id AND customer_id IS NOT NULL LIMIT 1`,
  ).get({ id })?.customer_id;
  const values = new Set<string>();
  for (const row of rows) personalValues(parsed(row.json), values);
  // What the ERP sent of the patient may hold values the platform's record does not.
  for (const body of patientMessages(store, customerId)) personalValues(parsed(body), values);
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
  return statement<{ customerId: string }, { body: string }>(
    store.db,
    `SELECT body FROM inbox_messages WHERE kind = 'patient' AND body <> ''
       AND json_valid(body) AND body ->> '$.customerId' = @customerId`,
  )
    .all({ customerId })
    .map((row) => row.body);
}

/** SQL true when `column` holds any of the needles (a JSON array in @needles). */
const holdsNeedle = (column: string) =>
  `EXISTS (SELECT 1 FROM json_each(@needles) WHERE instr(${column}, json_each.value) > 0)`;

const entityKeys = (patient: Patient): string[] => [
  ...patient.records.map((record) => `${record.resource}:${record.id}`),
  ...(patient.customerId === undefined ? [] : [`patient:${patient.customerId}`]),
];

/** The patient's jobs: by their entity, or by a payload naming the patient. */
const PATIENT_JOB_SQL = `(entity_key IN (SELECT value FROM json_each(@keys))
  OR ${holdsNeedle('payload')} OR ${holdsNeedle('entity_key')})`;

function params(patient: Patient): { keys: string; needles: string } {
  return { keys: JSON.stringify(entityKeys(patient)), needles: JSON.stringify(patient.needles) };
}

/** Work for the patient still under way: it would write the data again, or need it. */
function unresolvedWork(store: Store, patient: Patient): UnresolvedWork {
  const jobs = statement<{ keys: string; needles: string }, { id: number }>(
    store.db,
    `SELECT id FROM queue WHERE ${PATIENT_JOB_SQL} AND (state IN ('pending', 'running')
       OR (state = 'dead' AND EXISTS (SELECT 1 FROM dead_letters
         WHERE job_id = queue.id AND resolved_at IS NULL)))
     ORDER BY id`,
  )
    .all(params(patient))
    .map((row) => row.id);
  const versions = statement<{ records: string }, { key: string }>(
    store.db,
    `SELECT resource || ':' || _id || ':' || version AS key FROM ledger
     WHERE resource || ':' || _id IN (SELECT value FROM json_each(@records))
       AND delivered_at IS NULL
     ORDER BY seq`,
  )
    .all({ records: JSON.stringify(patient.records.map((r) => `${r.resource}:${r.id}`)) })
    .map((row) => row.key);
  const messages = statement<{ needles: string }, { id: number }>(
    store.db,
    `SELECT id FROM inbox_messages WHERE state = 'received' AND ${holdsNeedle('body')} ORDER BY id`,
  )
    .all({ needles: JSON.stringify(patient.needles) })
    .map((row) => row.id);
  return { jobs, versions, messages };
}

const hasWork = (work: UnresolvedWork): boolean =>
  work.jobs.length + work.versions.length + work.messages.length > 0;

/**
 * Reduces each of the patient's records in the mirror; their ledger rows keep hashes and the
 * names of the fields each version changed (names, never values: nothing personal).
 */
function eraseRecords(store: Store, patient: Patient, now: string): Record<string, number> {
  const reduce = statement<{ resource: string; id: string; json: string }>(
    store.db,
    'UPDATE mirror SET json = @json WHERE resource = @resource AND _id = @id',
  );
  const read = statement<{ resource: string; id: string }, { json: string }>(
    store.db,
    'SELECT json FROM mirror WHERE resource = @resource AND _id = @id',
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

/**
 * Gives the patient's unresolved work up (`--force`): pending and running jobs are superseded
 * with no successor, open dead letters dropped, ERP messages not yet handled rejected. Their
 * texts are erased next, so none of it could run anyway.
 */
function giveUpWork(store: Store, work: UnresolvedWork, now: string): void {
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

/** Files under `folder` (recursively) whose bytes hold one of the needles. */
function filesHolding(folder: string, needles: readonly string[]): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder, { recursive: true, withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const patterns = needles.map((needle) => Buffer.from(needle, 'utf8'));
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .filter((file) => {
      const bytes = fs.readFileSync(file);
      return patterns.some((pattern) => bytes.includes(pattern));
    });
}

/**
 * The inbox's archive and error folders: a file naming the patient is removed whole (with the
 * error report beside it). Files not yet handled are not touched: they are work under way.
 */
function eraseInboxFiles(inbox: string, patient: Patient): string[] {
  const found = ['.archive', '.error'].flatMap((folder) =>
    filesHolding(path.join(inbox, folder), patient.needles),
  );
  const reports = found.map((file) => `${file}.error.json`).filter((file) => fs.existsSync(file));
  const files = [...new Set([...found, ...reports])];
  for (const file of files) fs.rmSync(file, { force: true });
  return files;
}

/**
 * The same erasure inside a backup (a database file `backup` wrote): opened directly, erased,
 * rebuilt by VACUUM so no free page keeps a byte, its WAL emptied. Its unresolved work is
 * erased too: a backup is a copy, not where work runs.
 */
function eraseInBackup(file: string, patient: Patient, clockOf: Store): boolean {
  if (!fs.existsSync(file)) return false;
  const db = new Sqlite(file);
  const backup: Store = {
    db,
    clock: clockOf.clock,
    path: file,
    room: { fullSince: undefined, lastFullAt: undefined, problem: undefined },
    jobsQueued: jobsQueued(),
    close: () => db.close(),
  };
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
  const id = patientId(store, subject);
  if (id === undefined) return { outcome: 'unknown' };
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

export interface Erasure {
  subject: string;
  at: string;
  forced: boolean;
  osUser: string;
}

/** The erasures done so far, newest first (the audit). */
export function listErasures(store: Store): Erasure[] {
  return plainStatement<{ subject: string; at: string; forced: number; os_user: string }>(
    store.db,
    'SELECT subject, at, forced, os_user FROM erasures ORDER BY id DESC',
  )
    .all()
    .map((row) => ({
      subject: row.subject,
      at: row.at,
      forced: row.forced === 1,
      osUser: row.os_user,
    }));
}
