import { RESOURCE_NAMES } from '../contract/index.js';
import {
  AGAIN,
  archivalKey,
  handOverKey,
  inboxJobKey,
  inboxMessageOfKey,
  type InboxMessageKey,
} from './jobKeys.js';
import { operatorActionsOn } from './operatorActions.js';
import { statement } from './statements.js';
import type { Store } from './store.js';

/**
 * One record's way through the daemon, read from what the database keeps (`trace <key>`):
 * its pulled versions and hand-overs (ledger), the jobs about it (queue, by entity key) with
 * their dead letters, the ERP messages those jobs came from (inbox_messages), and our last
 * write's fingerprint (own_writes). Reads only.
 */

/** The record a trace follows, and the queue's entity keys jobs about it carry. */
export interface TraceSubject {
  resource: string;
  id: string;
  entityKeys: string[];
}

export type TraceEventKind =
  'version' | 'handOver' | 'job' | 'deadLetter' | 'message' | 'ownWrite' | 'operator';

export interface TraceEvent {
  at: string;
  kind: TraceEventKind;
  what: string;
  job?: number;
}

interface MirrorKeys {
  resource: string;
  _id: string;
  customer_id: string | null;
  customer_number: string | null;
  sales_id: string | null;
  serial_number: string | null;
}

const MIRROR_KEYS = 'resource, _id, customer_id, customer_number, sales_id, serial_number';

/**
 * The queue's entity keys for a record: `<resource>:<_id>`, and the ERP's own key where the
 * inbox keys a kind by it (src/queue/jobs.ts): a patient's customerId, an article's
 * customerNumber, a device's serialNumber, an ERP order's salesId, an order status by salesId
 * before the order was known.
 */
function subjectOf(row: MirrorKeys): TraceSubject {
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

/** Looked up per resource, so each lookup takes the mirror's key or one of its indexes. */
function mirroredBy(store: Store, column: string, value: string): TraceSubject[] {
  return statement<{ value: string; resources: string }, MirrorKeys>(
    store.db,
    `SELECT ${MIRROR_KEYS} FROM mirror
     WHERE resource IN (SELECT value FROM json_each(@resources)) AND ${column} = @value
     ORDER BY resource, _id`,
  )
    .all({ value, resources: JSON.stringify(RESOURCE_NAMES) })
    .map(subjectOf);
}

/** The mirrored records whose `_id` or one of the ERP's keys is `key`. */
function mirroredByAnyKey(store: Store, key: string): TraceSubject[] {
  return ['_id', 'sales_id', 'customer_id', 'customer_number', 'serial_number'].flatMap((column) =>
    mirroredBy(store, column, key),
  );
}

/** The subject a job is about, by its entity key; undefined for a job not in the queue. */
function subjectOfJob(store: Store, jobId: number): TraceSubject | undefined {
  const job = statement<{ id: number }, { entity_key: string }>(
    store.db,
    'SELECT entity_key FROM queue WHERE id = @id',
  ).get({ id: jobId });
  if (job === undefined) return undefined;
  const key = job.entity_key;
  const [resource = '', ...rest] = key.split(':');
  const id = rest.join(':');
  const found = mirroredByAnyKey(store, id).find((subject) => subject.resource === resource);
  return found ?? { resource, id, entityKeys: [key] };
}

/** The subject of an ERP message, found by its file name or request key. */
function subjectsOfMessage(store: Store, name: string): TraceSubject[] {
  const messages = statement<{ name: string; suffix: string }, InboxMessageKey>(
    store.db,
    `SELECT kind, source, name, sha256 FROM inbox_messages
     WHERE name = @name OR name LIKE @suffix ORDER BY id`,
  ).all({ name, suffix: `%/${name}` });
  const jobOf = statement<{ key: string }, { id: number }>(
    store.db,
    'SELECT id FROM queue WHERE idempotency_key = @key',
  );
  return messages.flatMap((message) => {
    const job = jobOf.get({ key: inboxJobKey(message) });
    const subject = job === undefined ? undefined : subjectOfJob(store, job.id);
    return subject === undefined ? [] : [subject];
  });
}

/**
 * The records `key` names: a platform `_id`, a salesId (an ERP order number), a patient's
 * customerId, an article's customerNumber, a device's serialNumber, an outbox file name
 * (`<_id>_<version>.<ext>`), an inbox file name or request key, or a job id.
 */
export function subjectsOfKey(store: Store, key: string): TraceSubject[] {
  const found = mirroredByAnyKey(store, key);
  if (found.length > 0) return found;
  if (/^\d+$/.test(key)) {
    const ofJob = subjectOfJob(store, Number(key));
    if (ofJob !== undefined) return [ofJob];
  }
  const ofMessage = subjectsOfMessage(store, key);
  if (ofMessage.length > 0) return ofMessage;
  // An outbox file: the record's `_id` comes first in its name.
  const [fileId] = (key.split('/').pop() ?? key).split('_');
  return fileId !== undefined && fileId !== key ? mirroredBy(store, '_id', fileId) : [];
}

interface LedgerRow {
  version: string;
  _id: string;
  run_id: number | null;
  seen_at: string;
  delivered_at: string | null;
  ack_state: string;
}

function versionEvents(store: Store, subject: TraceSubject): TraceEvent[] {
  const rows = statement<{ resource: string; id: string; archived: string }, LedgerRow>(
    store.db,
    `SELECT version, _id, run_id, seen_at, delivered_at, ack_state FROM ledger
     WHERE resource = @resource AND _id IN (@id, @archived) ORDER BY seq`,
  ).all({ resource: subject.resource, id: subject.id, archived: `${subject.id}#archived` });
  return rows.flatMap((row) => {
    const what = row._id === subject.id ? `version ${row.version}` : 'the archival event';
    const run = row.run_id === null ? '' : ` (run ${row.run_id})`;
    const seen: TraceEvent = { at: row.seen_at, kind: 'version', what: `pulled ${what}${run}` };
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
function handOverJobOf(store: Store, subject: TraceSubject, row: LedgerRow): boolean {
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
  created_at: string;
  updated_at: string;
  idempotency_key: string | null;
}

/** The ERP message an inbox job came from (its key names it: inboxMessageOfKey). */
function messageOf(store: Store, job: JobRow): TraceEvent | undefined {
  const message = inboxMessageOfKey(job.idempotency_key ?? undefined);
  if (message === undefined) return undefined;
  const row = statement<InboxMessageKey, { received_at: string }>(
    store.db,
    `SELECT received_at FROM inbox_messages
     WHERE kind = @kind AND source = @source AND name = @name AND sha256 = @sha256
     ORDER BY id LIMIT 1`,
  ).get(message);
  if (row === undefined) return undefined;
  const { kind, source, name } = message;
  const from = source === 'file' ? 'file' : 'request';
  return {
    at: row.received_at,
    kind: 'message',
    what: `ERP ${kind} ${from} ${name} received`,
    job: job.id,
  };
}

/**
 * Where a job stands: `attempts` counts the tries that failed, and the last one's answer stays
 * on the job after a later try went through.
 */
function jobState(job: JobRow): string {
  const failed = `${job.attempts} failed ${job.attempts === 1 ? 'try' : 'tries'}`;
  const status = job.last_status === null ? '' : `HTTP ${job.last_status}`;
  const last = [status, job.last_error ?? ''].filter((part) => part !== '').join(': ');
  const why = last === '' ? '' : ` (the last: ${last})`;
  if (job.attempts === 0) return `job ${job.id} ${job.kind} ${job.state}`;
  return `job ${job.id} ${job.kind} ${job.state} after ${failed}${why}`;
}

function jobEvents(store: Store, job: JobRow): TraceEvent[] {
  const events: TraceEvent[] = [];
  const message = messageOf(store, job);
  if (message !== undefined) events.push(message);
  events.push({
    at: job.created_at,
    kind: 'job',
    what: `job ${job.id} ${job.kind} queued`,
    job: job.id,
  });
  if (job.attempts > 0 || job.state !== 'pending') {
    events.push({ at: job.updated_at, kind: 'job', what: jobState(job), job: job.id });
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
      what: `job ${job.id} dead: ${letter.reason}`,
      job: job.id,
    });
    if (letter.resolved_at !== null) {
      const how = `job ${job.id}'s dead letter resolved: ${letter.resolution ?? 'resolved'}`;
      events.push({ at: letter.resolved_at, kind: 'deadLetter', what: how, job: job.id });
    }
  }
  return events;
}

function jobsOf(store: Store, subject: TraceSubject): JobRow[] {
  const select = statement<{ key: string }, JobRow>(
    store.db,
    `SELECT id, kind, state, attempts, last_error, last_status, created_at, updated_at,
       idempotency_key FROM queue INDEXED BY queue_entity WHERE entity_key = @key ORDER BY id`,
  );
  return subject.entityKeys.flatMap((key) => select.all({ key }));
}

function ownWriteEvent(store: Store, subject: TraceSubject): TraceEvent[] {
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

/** What operators did to the record and its jobs (queue retry and drop, redeliver), and who. */
function operatorEvents(
  store: Store,
  subject: TraceSubject,
  jobs: readonly JobRow[],
): TraceEvent[] {
  const subjects = [`${subject.resource}:${subject.id}`, ...jobs.map((job) => `job:${job.id}`)];
  return operatorActionsOn(store, subjects).map((done) => {
    const detail = done.detail === undefined ? '' : ` (${done.detail})`;
    const what = `${done.action} of ${done.subject}${detail} by ${done.osUser} on ${done.host}`;
    return { at: done.at, kind: 'operator' as const, what };
  });
}

/** The subject's timeline, oldest first (events of one time in the order they happened). */
export function traceOf(store: Store, subject: TraceSubject): TraceEvent[] {
  const jobs = jobsOf(store, subject);
  const events = [
    ...versionEvents(store, subject),
    ...jobs.flatMap((job) => jobEvents(store, job)),
    ...ownWriteEvent(store, subject),
    ...operatorEvents(store, subject, jobs),
  ];
  return events
    .map((event, order) => ({ event, order }))
    .sort((a, b) =>
      a.event.at < b.event.at ? -1 : a.event.at > b.event.at ? 1 : a.order - b.order,
    )
    .map(({ event }) => event);
}
