import { maskPersonal, messageLabel, type PersonalValues } from '../log/index.js';
import {
  AGAIN,
  archivalKey,
  handOverKey,
  operatorActionsOn,
  pauseActionsOf,
  personalValuesOf,
  type RecordedAction,
  type RecordSubject,
  type Store,
  type VersionChanges,
} from '../store/index.js';
import { statement } from '../store/statements.js';
import type { TraceEvent } from './event.js';
import { messageOf, SHOWN, unqueuedMessageEvents, type Mask } from './messages.js';

/**
 * One record's way through the daemon, read from what the database keeps (`trace <key>`):
 * its pulled versions, each with the names of the fields it changed, and hand-overs (ledger),
 * the jobs about it (queue, by entity key) with their dead letters, the ERP messages those jobs
 * came from (inbox_messages), and our last write's fingerprint (own_writes). Reads only.
 *
 * Personal values reach a timeline only inside the other side's words: a job's last error and a
 * dead letter's reason (an answer may quote the record), and the ERP's file names. Unless they
 * are `shown`, those texts are masked as every output is (maskPersonal): the values of the
 * record's personal fields, of its patient's and of its jobs' payloads wherever they stand (see
 * personalValuesOf), and `"key": value` pairs of personal keys; a file name becomes its label
 * (messageLabel, as logs show it). Ids, keys, statuses, stamps and job ids stay: they are what
 * one searches by. So do field names: the pull keeps no values of what a version changed.
 */

interface LedgerRow {
  version: string;
  _id: string;
  run_id: number | null;
  seen_at: string;
  delivered_at: string | null;
  ack_state: string;
  changed: string | null;
}

/**
 * A pulled version as seen, with what it changed as the pull noted it (VersionChanges); a
 * version no pull compared (older builds, our own write's answer, a redelivery) says nothing.
 */
function seenEvent(row: LedgerRow, what: string): TraceEvent {
  const run = row.run_id === null ? '' : ` (run ${row.run_id})`;
  const seen: TraceEvent = { at: row.seen_at, kind: 'version', what: `pulled ${what}${run}` };
  if (row.changed === null) return seen;
  const changes = JSON.parse(row.changed) as VersionChanges;
  if (changes === 'new') return { ...seen, what: `${seen.what}: new`, new: true };
  const named =
    changes.length === 0 ? 'no field changed but its stamps' : `changed ${changes.join(', ')}`;
  return { ...seen, what: `${seen.what}: ${named}`, changed: changes };
}

function versionEvents(store: Store, subject: RecordSubject): TraceEvent[] {
  const rows = statement<{ resource: string; id: string; archived: string }, LedgerRow>(
    store.db,
    `SELECT version, _id, run_id, seen_at, delivered_at, ack_state, changed FROM ledger
     WHERE resource = @resource AND _id IN (@id, @archived) ORDER BY seq`,
  ).all({ resource: subject.resource, id: subject.id, archived: `${subject.id}#archived` });
  return rows.flatMap((row) => {
    const what = row._id === subject.id ? `version ${row.version}` : 'the archival event';
    const seen = seenEvent(row, what);
    if (row.delivered_at === null) return [seen];
    const ack = row.ack_state === 'none' ? '' : `; acknowledgement ${row.ack_state}`;
    const handed = handOverJobOf(store, subject, row)
      ? `handed ${what} to the ERP${ack}`
      : `${what} is our own write coming back: not handed to the ERP (or its hand-over's job is past retention)`;
    return [seen, { at: row.delivered_at, kind: 'handOver' as const, what: handed }];
  });
}

/**
 * Whether the queue still holds a job that handed this version over: its hand-over, an
 * archival event's, or an operator's redelivery (the keys of queue/deliveryJob.ts, looked up
 * by the key's unique index, the redeliveries as the range of keys after AGAIN: their marks
 * are times, ASCII, all below \uffff).
 */
function handOverJobOf(store: Store, subject: RecordSubject, row: LedgerRow): boolean {
  const key = handOverKey(subject.resource, subject.id, row.version);
  const again = `${key}${AGAIN}`;
  const job = statement<Record<string, string>, { id: number }>(
    store.db,
    `SELECT id FROM queue WHERE idempotency_key IN (@key, @archived)
       OR (idempotency_key > @again AND idempotency_key < @againEnd) LIMIT 1`,
  ).get({ key, archived: archivalKey(key), again, againEnd: `${again}\uffff` });
  return job !== undefined;
}

interface JobRow {
  id: number;
  kind: string;
  state: string;
  attempts: number;
  last_error: string | null;
  last_status: number | null;
  answer: string | null;
  created_at: string;
  updated_at: string;
  idempotency_key: string | null;
  payload: string;
}

/**
 * Where a job stands: `attempts` counts the tries that failed, and the last one's answer stays
 * on the job after a later try went through.
 */
function jobState(job: JobRow, mask: Mask): string {
  const failed = `${job.attempts} failed ${job.attempts === 1 ? 'try' : 'tries'}`;
  const status = job.last_status === null ? '' : `HTTP ${job.last_status}`;
  const error = job.last_error === null ? '' : mask.text(job.last_error);
  const last = [status, error].filter((part) => part !== '').join(': ');
  const why = last === '' ? '' : ` (the last: ${last})`;
  const answered = job.state === 'done' && job.answer !== null ? `: ${job.answer}` : '';
  if (job.attempts === 0) return `job ${job.id} ${job.kind} ${job.state}${answered}`;
  return `job ${job.id} ${job.kind} ${job.state} after ${failed}${why}${answered}`;
}

function jobEvents(store: Store, job: JobRow, mask: Mask): TraceEvent[] {
  const events: TraceEvent[] = [];
  const message = messageOf(store, job, mask);
  if (message !== undefined) events.push(message);
  events.push({
    at: job.created_at,
    kind: 'job',
    what: `job ${job.id} ${job.kind} queued`,
    job: job.id,
  });
  if (job.attempts > 0 || job.state !== 'pending') {
    events.push({ at: job.updated_at, kind: 'job', what: jobState(job, mask), job: job.id });
  }
  const letters = statement<
    { id: number },
    { reason: string; dead_at: string; resolved_at: string | null; resolution: string | null }
  >(
    store.db,
    'SELECT reason, dead_at, resolved_at, resolution FROM dead_letters WHERE job_id = @id ORDER BY id',
  ).all({ id: job.id });
  for (const letter of letters) {
    events.push({
      at: letter.dead_at,
      kind: 'deadLetter',
      what: `job ${job.id} dead: ${mask.text(letter.reason)}`,
      job: job.id,
    });
    if (letter.resolved_at !== null) {
      const how = `job ${job.id}'s dead letter resolved: ${letter.resolution ?? 'resolved'}`;
      events.push({ at: letter.resolved_at, kind: 'deadLetter', what: how, job: job.id });
    }
  }
  return events;
}

function jobsOf(store: Store, subject: RecordSubject): JobRow[] {
  const select = statement<{ key: string }, JobRow>(
    store.db,
    `SELECT id, kind, state, attempts, last_error, last_status, answer, created_at, updated_at,
       idempotency_key, payload FROM queue INDEXED BY queue_entity WHERE entity_key = @key ORDER BY id`,
  );
  return subject.entityKeys.flatMap((key) => select.all({ key }));
}

function ownWriteEvent(store: Store, subject: RecordSubject): TraceEvent[] {
  const row = statement<
    { resource: string; id: string },
    { written_at: string; editor: string | null }
  >(
    store.db,
    'SELECT written_at, editor FROM own_writes WHERE resource = @resource AND _id = @id',
  ).get({ resource: subject.resource, id: subject.id });
  if (row === undefined) return [];
  const editor = row.editor === null ? '' : ` (the platform named ${row.editor})`;
  const what = `our last write to it${editor}: its echo in a pull is known as ours`;
  return [{ at: row.written_at, kind: 'ownWrite', what }];
}

const ENDED_STATES: ReadonlySet<string> = new Set(['done', 'dead', 'superseded']);

/**
 * What operators did to the record and its jobs (queue retry and drop, redeliver), and who;
 * and the pauses that held its pulls or its jobs (`pausable`: the kinds a push pause holds).
 */
function operatorEvents(
  store: Store,
  subject: RecordSubject,
  jobs: readonly JobRow[],
  pausable: (kind: string) => boolean,
  firstSeen: string | undefined,
): TraceEvent[] {
  const subjects = [`${subject.resource}:${subject.id}`, ...jobs.map((job) => `job:${job.id}`)];
  const lives = jobs.map((job) => ({
    kind: job.kind,
    createdAt: job.created_at,
    endedAt: ENDED_STATES.has(job.state) ? job.updated_at : undefined,
  }));
  const pulls =
    firstSeen === undefined ? {} : { pulls: { resource: subject.resource, from: firstSeen } };
  const pauses = pauseActionsOf(store, { ...pulls, jobs: lives, holds: pausable });
  return [...operatorActionsOn(store, subjects), ...pauses].map((done: RecordedAction) => {
    const detail = done.detail === undefined ? '' : ` (${done.detail})`;
    const what = `${done.action} of ${done.subject}${detail} by ${done.osUser} on ${done.host}`;
    return { at: done.at, kind: 'operator' as const, what };
  });
}

/** The masking of one subject's timeline: its record's and its jobs' personal values. */
function maskOf(store: Store, subject: RecordSubject, jobs: readonly JobRow[]): Mask {
  const known = personalValuesOf(
    store,
    subject,
    jobs.map((job) => job.payload),
  );
  return { text: (text) => maskPersonal(text, known), name: messageLabel };
}

/**
 * The subject's timeline, oldest first (events of one time in the order they happened).
 * `pausable`: the job kinds a push pause holds back (the queue's platform writes), whose
 * pauses the timeline shows while such a job was open. `personal`: see PersonalValues.
 */
export function traceOf(
  store: Store,
  subject: RecordSubject,
  pausable: (kind: string) => boolean = () => false,
  personal: PersonalValues = 'masked',
): TraceEvent[] {
  const jobs = jobsOf(store, subject);
  const mask = personal === 'shown' ? SHOWN : maskOf(store, subject, jobs);
  const recorded = [
    ...versionEvents(store, subject),
    ...jobs.flatMap((job) => jobEvents(store, job, mask)),
    ...unqueuedMessageEvents(store, subject, mask),
    ...ownWriteEvent(store, subject),
  ];
  const firstSeen = recorded.map((event) => event.at).sort()[0];
  const events = [...recorded, ...operatorEvents(store, subject, jobs, pausable, firstSeen)];
  return events
    .map((event, order) => ({ event, order }))
    .sort((a, b) =>
      a.event.at < b.event.at ? -1 : a.event.at > b.event.at ? 1 : a.order - b.order,
    )
    .map(({ event }) => event);
}
