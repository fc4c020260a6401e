import {
  EVERY_TARGET,
  latestRunsOf,
  pausesInForce,
  type Pause,
  type RecordSubject,
  type Store,
} from '../store/index.js';
import { query } from '../store/statements.js';
import type { JobRow } from './jobs.js';
import type { Mask } from './messages.js';

/**
 * Why a record has not moved, when it waits (the console's "why not moved", `trace`'s last
 * lines): each thing that holds it now, in words that say what it waits for and what ends
 * the wait. Nothing when nothing holds it.
 */

export interface WaitContext {
  store: Store;
  subject: RecordSubject;
  jobs: readonly JobRow[];
  mask: Mask;
  /** The job kinds a push pause holds back. */
  pausable: (kind: string) => boolean;
  /** Now, as the database's times are written (ISO, UTC). */
  now: string;
  /** The open dead letters of its jobs, by job id: their reasons. */
  openLetters: ReadonlyMap<number, string>;
}

function quarantined({ store, subject, mask }: WaitContext): string[] {
  const row = query<{ resource: string; id: string }, { reason: string; seen_at: string }>(
    store.db,
    `SELECT reason, seen_at FROM quarantine WHERE resource = @resource AND record_id = @id
     ORDER BY id DESC LIMIT 1`,
    { reason: 'text', seen_at: 'text' },
  ).get({ resource: subject.resource, id: subject.id });
  if (row === undefined) return [];
  return [
    `a version was quarantined at ${row.seen_at}: ${mask.text(row.reason)}; a version the platform sends fixed is pulled as usual`,
  ];
}

const pausedPull = (pauses: readonly Pause[], resource: string) =>
  pauses.find((p) => p.direction === 'pull' && [resource, EVERY_TARGET].includes(p.target));

function pulls({ store, subject, mask }: WaitContext, pauses: readonly Pause[]): string[] {
  const reasons: string[] = [];
  const paused = pausedPull(pauses, subject.resource);
  if (paused !== undefined) {
    const which = paused.target === EVERY_TARGET ? '' : ` ${subject.resource}`;
    reasons.push(
      `the pulls of ${subject.resource} are paused since ${paused.since}: changes on the platform are not pulled (homecare-sync resume pull${which})`,
    );
  }
  for (const run of latestRunsOf(store, subject.resource)) {
    if (run.ok !== false) continue;
    const list = run.filter === '' ? subject.resource : `${subject.resource} (${run.filter})`;
    reasons.push(
      `the last pull of ${list} failed at ${run.finishedAt ?? run.startedAt}: ${mask.text(run.error ?? 'no reason kept')}`,
    );
  }
  return reasons;
}

const tries = (n: number) => `${n} failed ${n === 1 ? 'try' : 'tries'}`;

/** Why one open job has not run to its end yet. */
function jobWait(job: JobRow, context: WaitContext, pauses: readonly Pause[]): string {
  const named = `job ${job.id} ${job.kind}`;
  if (job.state === 'running') return `${named} is running now`;
  const held = context.pausable(job.kind)
    ? pauses.find((p) => p.direction === 'push' && [job.kind, EVERY_TARGET].includes(p.target))
    : undefined;
  if (held !== undefined) {
    const which = held.target === EVERY_TARGET ? '' : ` ${job.kind}`;
    return `${named} is held by a pause of the platform writes since ${held.since} (homecare-sync resume push${which})`;
  }
  const before = context.jobs.find(
    (other) =>
      other.entity_key === job.entity_key &&
      other.id < job.id &&
      (other.state === 'pending' || other.state === 'running'),
  );
  if (before !== undefined) {
    return `${named} waits for job ${before.id} ${before.kind}: the jobs of one record run in order`;
  }
  if (job.next_attempt_at <= context.now) return `${named} is due: it runs at the next queue pass`;
  const last = job.last_error === null ? '' : `; the last: ${context.mask.text(job.last_error)}`;
  const asked =
    job.retry_after_until !== null && job.retry_after_until >= job.next_attempt_at
      ? ', as the other side’s Retry-After asked'
      : '';
  return `${named} waits until ${job.next_attempt_at}${asked}, after ${tries(job.attempts)}${last}`;
}

function jobs(context: WaitContext, pauses: readonly Pause[]): string[] {
  const open = context.jobs.filter((job) => job.state === 'pending' || job.state === 'running');
  const reasons = open.map((job) => jobWait(job, context, pauses));
  for (const job of context.jobs) {
    const reason = context.openLetters.get(job.id);
    if (reason === undefined) continue;
    reasons.push(
      `job ${job.id} ${job.kind} is a dead letter: ${context.mask.text(reason)}; it waits for an operator (retry once fixed, or drop)`,
    );
  }
  return reasons;
}

/** What holds the record now; empty when nothing does. */
export function whyWaiting(context: WaitContext): string[] {
  const pauses = pausesInForce(context.store);
  return [...quarantined(context), ...pulls(context, pauses), ...jobs(context, pauses)];
}
