import { dropJob, listJobs, retryJob, type JobListing } from '../queue/index.js';
import { supersedingKind } from '../pushback/index.js';
import { PermanentError } from '../shared/errors.js';
import { recordOperatorAction, transaction, type Operator, type Store } from '../store/index.js';

/** What an operator does to a dead letter: put its job back in the queue, or give it up. */
export type DeadLetterAction = 'retry' | 'drop';

/** `action` to job `id`, kept with the operator action that names it, or not at all. */
function actOn(store: Store, id: number, action: DeadLetterAction, by: Operator, detail?: string) {
  return transaction(store, () => {
    const job = action === 'retry' ? retryJob(store, id, supersedingKind) : dropJob(store, id);
    const done = { action, subject: `job:${id}`, ...(detail === undefined ? {} : { detail }) };
    recordOperatorAction(store, done, by);
    return job;
  });
}

/**
 * Puts dead job `id` back in the queue, due now, its tries counted from zero (queue/admin.ts
 * retryJob says when that is refused: a PermanentError naming why).
 */
export function retryDeadLetter(store: Store, id: number, by: Operator): void {
  actOn(store, id, 'retry', by);
}

/** Gives dead job `id` up: its dead letter is resolved, the job stays for the record. */
export function dropDeadLetter(store: Store, id: number, by: Operator): void {
  actOn(store, id, 'drop', by);
}

/** Which open dead letters a bulk action takes: all, or those of a job kind. */
export interface DeadLetterFilter {
  /** A job kind as `queue list` shows it (`orderStatus`, `ack.singleOrder`, `deliver.patient`). */
  kind?: string | undefined;
}

/** The open dead letters a filter matches, oldest first. */
export function deadLettersMatching(store: Store, filter: DeadLetterFilter = {}): JobListing[] {
  const dead = listJobs(store, { dead: true });
  return filter.kind === undefined ? dead : dead.filter((job) => job.kind === filter.kind);
}

/** Most dead letters one bulk action takes, unless told otherwise. */
export const BULK_CAP = 500;

/**
 * What a bulk action takes: the dead letters the filter matches that were there when they were
 * counted (ids up to `upTo`, so one that died since is not taken unseen), at most `cap`.
 */
export interface BulkScope extends DeadLetterFilter {
  upTo?: number | undefined;
  cap?: number | undefined;
}

/** How a bulk action went: the jobs it took, those it left (with why) and those beyond the cap. */
export interface BulkOutcome {
  done: number[];
  refused: { id: number; reason: string }[];
  /** Matched but not taken: beyond the cap. */
  left: number;
}

/**
 * The jobs a bulk action takes, how many it leaves beyond the cap, and the highest id it
 * counted (the `upTo` that takes these same ones, none that died since).
 */
export function bulkTargets(
  store: Store,
  scope: BulkScope,
): { ids: number[]; left: number; upTo: number } {
  const matched = deadLettersMatching(store, scope).filter(
    (job) => scope.upTo === undefined || job.id <= scope.upTo,
  );
  const cap = scope.cap ?? BULK_CAP;
  return {
    ids: matched.slice(0, cap).map((job) => job.id),
    left: Math.max(0, matched.length - cap),
    upTo: matched.at(-1)?.id ?? 0,
  };
}

/**
 * `action` to every dead letter in `scope`, each in a transaction of its own with its operator
 * action (`detail` says what asked for it: `--all-dead`, the console's filter): one refused (a
 * newer job replaces it) is left as it is, with the reason.
 */
export function actOnDeadLetters(
  store: Store,
  action: DeadLetterAction,
  scope: BulkScope,
  by: Operator,
  detail: string,
): BulkOutcome {
  const { ids, left } = bulkTargets(store, scope);
  const outcome: BulkOutcome = { done: [], refused: [], left };
  for (const id of ids) {
    try {
      actOn(store, id, action, by, detail);
      outcome.done.push(id);
    } catch (error) {
      if (!(error instanceof PermanentError)) throw error;
      outcome.refused.push({ id, reason: error.message });
    }
  }
  return outcome;
}
