import { DELIVER_PREFIX, sentText } from '../queue/index.js';
import type { RecordSubject, Store } from '../store/index.js';
import { query } from '../store/statements.js';
import type { TraceEvent } from './event.js';
import type { HandOverNaming } from './handOvers.js';
import { messageOf, type Mask } from './messages.js';

/** The jobs about a record, their tries and dead letters, from the queue. */

export interface JobRow {
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
  batch_id: number | null;
  entity_key: string;
  next_attempt_at: string;
  lease_until: string | null;
  retry_after_until: string | null;
}

/** The jobs about the subject, by its entity keys, oldest first per key. */
export function jobsOf(store: Store, subject: RecordSubject): JobRow[] {
  const select = query<{ key: string }, JobRow>(
    store.db,
    `SELECT id, kind, state, attempts, last_error, last_status, answer, created_at, updated_at,
       idempotency_key, payload, batch_id, entity_key, next_attempt_at, lease_until,
       retry_after_until
     FROM queue INDEXED BY queue_entity WHERE entity_key = @key ORDER BY id`,
    {
      id: 'number',
      kind: 'text',
      state: 'text',
      attempts: 'number',
      last_error: 'text?',
      last_status: 'number?',
      answer: 'text?',
      created_at: 'text',
      updated_at: 'text',
      idempotency_key: 'text?',
      payload: 'text',
      batch_id: 'number?',
      entity_key: 'text',
      next_attempt_at: 'text',
      lease_until: 'text?',
      retry_after_until: 'text?',
    },
  );
  return subject.entityKeys.flatMap((key) => select.all({ key }));
}

/** The open dead letter of each dead job among `jobs`, by job id: its reason. */
export function openDeadLetters(store: Store, jobs: readonly JobRow[]): Map<number, string> {
  const letter = query<{ id: number }, { reason: string }>(
    store.db,
    `SELECT reason FROM dead_letters WHERE job_id = @id AND resolved_at IS NULL
     ORDER BY id DESC LIMIT 1`,
    { reason: 'text' },
  );
  const open = new Map<number, string>();
  for (const job of jobs.filter((j) => j.state === 'dead')) {
    const found = letter.get({ id: job.id });
    if (found !== undefined) open.set(job.id, found.reason);
  }
  return open;
}

/**
 * What a job that ended well did, in the words that follow its state: the file or request a
 * hand-over went as (`handOvers`), the values a platform write wrote (sentText, as its log line
 * says them).
 */
function doneWith(job: JobRow, handOvers: HandOverNaming): { values: string; handed: string } {
  const payload = JSON.parse(job.payload) as Record<string, unknown>;
  if (!job.kind.startsWith(DELIVER_PREFIX)) return { values: sentText(payload), handed: '' };
  if (job.state !== 'done') return { values: '', handed: '' };
  const { resource, id, version } = payload;
  if (typeof resource !== 'string' || typeof id !== 'string' || typeof version !== 'string') {
    return { values: '', handed: '' };
  }
  const archival = payload['archival'] === true;
  const batch = job.batch_id ?? undefined;
  return {
    values: '',
    handed: `: handed over${handOvers({ resource, id, version, archival, batch })}`,
  };
}

/**
 * Where a job stands: `attempts` counts the tries that failed, and the last one's answer stays
 * on the job after a later try went through.
 */
function jobState(job: JobRow, mask: Mask, handOvers: HandOverNaming): string {
  const failed = `${job.attempts} failed ${job.attempts === 1 ? 'try' : 'tries'}`;
  const status = job.last_status === null ? '' : `HTTP ${job.last_status}`;
  const error = job.last_error === null ? '' : mask.text(job.last_error);
  const last = [status, error].filter((part) => part !== '').join(': ');
  const why = last === '' ? '' : ` (the last: ${last})`;
  const answered = job.state === 'done' && job.answer !== null ? `: ${job.answer}` : '';
  const { values, handed } = doneWith(job, handOvers);
  const state = `job ${job.id} ${job.kind} ${job.state}${values}`;
  if (job.attempts === 0) return `${state}${handed}${answered}`;
  return `${state} after ${failed}${why}${handed}${answered}`;
}

/** A job's story: the ERP message it came from, queued, its state now, its dead letters. */
export function jobEvents(
  store: Store,
  job: JobRow,
  mask: Mask,
  handOvers: HandOverNaming,
): TraceEvent[] {
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
    const what = jobState(job, mask, handOvers);
    events.push({ at: job.updated_at, kind: 'job', what, job: job.id });
  }
  const letters = query<
    { id: number },
    { reason: string; dead_at: string; resolved_at: string | null; resolution: string | null }
  >(
    store.db,
    'SELECT reason, dead_at, resolved_at, resolution FROM dead_letters WHERE job_id = @id ORDER BY id',
    { reason: 'text', dead_at: 'text', resolved_at: 'text?', resolution: 'text?' },
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
