import type { ResourceName } from '../contract/index.js';
import type { ErrorCode } from '../shared/errorCodes.js';
import { PermanentError } from '../shared/errors.js';
import type { DeadLetter, JobState, RecordedAction, StoredJob, Store } from '../store/index.js';
import {
  deadLettersOf,
  getLedgerEntry,
  getMirror,
  getStoredJob,
  listStoredJobs,
  newerJobId,
  openDeadLetterJobIds,
  operatorActionsOn,
  pauseActionsOf,
  recordVersion,
  resolveDeadLetters,
  reviveJob,
  transaction,
} from '../store/index.js';
import { deliveryJob } from './deliveryJob.js';
import { enqueue } from './enqueue.js';
import { isPlatformWrite, type Superseding } from './types.js';

/** A job as operators see it: `dropped` is a dead job whose dead letter an operator dropped. */
export interface JobListing extends StoredJob {
  status: JobState | 'dropped';
}

export interface JobDetails extends JobListing {
  deadLetters: DeadLetter[];
  /** What operators did to the job (retry, drop) and the push pauses that held it, and who. */
  operatorActions: RecordedAction[];
}

const OPEN_STATES: readonly JobState[] = ['pending', 'running', 'dead'];

/**
 * Jobs still to run and dead ones whose dead letter is open, oldest first; with `dead`, only
 * those. Done, superseded and dropped jobs stay in the database, unlisted (`getJob` shows them).
 */
export function listJobs(
  store: Store,
  options: { dead?: boolean; limit?: number } = {},
): JobListing[] {
  const open = new Set(openDeadLetterJobIds(store));
  const jobs = listStoredJobs(store, options.dead === true ? ['dead'] : OPEN_STATES)
    .map((job) => ({ ...job, status: statusOf(job, open) }))
    .filter((job) => job.status !== 'dropped');
  return options.limit === undefined ? jobs : jobs.slice(0, options.limit);
}

export function getJob(store: Store, id: number): JobDetails | undefined {
  const job = getStoredJob(store, id);
  if (job === undefined) return undefined;
  const deadLetters = deadLettersOf(store, id);
  const open = new Set(deadLetters.some((letter) => letter.resolvedAt === undefined) ? [id] : []);
  const operatorActions = [
    ...operatorActionsOn(store, [`job:${id}`]),
    ...pausesOf(store, job),
  ].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
  return { ...job, status: statusOf(job, open), deadLetters, operatorActions };
}

const ENDED: ReadonlySet<JobState> = new Set(['done', 'dead', 'superseded']);

/** The push pauses that held the job back while it was open (`homecare-sync pause push`). */
function pausesOf(store: Store, job: StoredJob): RecordedAction[] {
  const life = {
    kind: job.kind,
    createdAt: job.createdAt,
    endedAt: ENDED.has(job.state) ? job.updatedAt : undefined,
  };
  return pauseActionsOf(store, { jobs: [life], holds: isPlatformWrite });
}

function statusOf(job: StoredJob, openLetters: ReadonlySet<number>): JobListing['status'] {
  return job.state === 'dead' && !openLetters.has(job.id) ? 'dropped' : job.state;
}

/**
 * Puts a dead job back in the queue, due now, with its tries counted from zero again; its dead
 * letter is resolved `retried`. Refused for a job that is not dead, and for a full-state job
 * (`superseding`: article, patient…) a newer job of the same entity replaces: sending it would
 * overwrite newer data on the platform with older.
 */
export function retryJob(store: Store, id: number, superseding: Superseding): StoredJob {
  return transaction(store, () => {
    const job = deadJob(store, id, 'retry');
    const newer = superseding(job.kind) ? newerJobId(store, job) : undefined;
    if (newer !== undefined) {
      throw adminError(
        `job ${id} (${job.kind} ${job.entityKey}) is older than job ${newer}, which replaces it; retrying it would send outdated data, so drop it: homecare-sync queue drop ${id}`,
        id,
        'QUEUE_JOB_REPLACED',
      );
    }
    reviveJob(store, id);
    resolveDeadLetters(store, id, 'retried');
    return mustGet(store, id);
  });
}

/**
 * Gives a dead job up: its dead letter is resolved `dropped`; the job stays in the database for
 * the record. A job still pending or running cannot be dropped: it may be on its way to the
 * platform, and dropping it could lose an update. It is dead-lettered after retry.maxAttempts.
 */
export function dropJob(store: Store, id: number): StoredJob {
  return transaction(store, () => {
    deadJob(store, id, 'drop');
    resolveDeadLetters(store, id, 'dropped');
    return mustGet(store, id);
  });
}

export interface Redelivery {
  resource: string;
  id: string;
  version: string;
  /** When the ERP had been handed this version before (undefined: never). */
  deliveredBefore: string | undefined;
}

/**
 * Hands the latest mirrored version of a record to the ERP again: for an ERP that lost it, or
 * after a checkpoint reset, whose repeats the ledger drops. A new deliver job is queued behind
 * whatever the record has in the queue; the ERP gets the same file name or Idempotency-Key as
 * the first time, and an acknowledgement already sent is not sent again (its job has the same
 * idempotency key).
 */
export function redeliver(store: Store, resource: ResourceName, id: string): Redelivery {
  return transaction(store, () => {
    const mirrored = getMirror(store, resource, id);
    if (mirrored === undefined) {
      throw new PermanentError(
        `no ${resource} ${id} in the mirror: homecare-sync has never pulled it; check the resource name and the _id (\`homecare-sync sync ${resource}\` pulls it first)`,
        { resource, id, code: 'NOT_MIRRORED' },
      );
    }
    const { version } = mirrored;
    // A record fetched only as a reference is in the mirror but not yet in the ledger.
    recordVersion(store, resource, id, version, { json: JSON.stringify(mirrored.record) });
    const before = getLedgerEntry(store, resource, id, version)?.deliveredAt;
    enqueue(store, deliveryJob(resource, id, version, store.clock.now().toISOString()));
    return { resource, id, version, deliveredBefore: before };
  });
}

function deadJob(store: Store, id: number, action: 'retry' | 'drop'): StoredJob {
  const job = mustGet(store, id);
  if (job.state === 'dead') return job;
  throw adminError(notDeadMessage(job, action), id, 'QUEUE_JOB_NOT_DEAD');
}

function notDeadMessage(job: StoredJob, action: 'retry' | 'drop'): string {
  const subject = `job ${job.id} (${job.kind} ${job.entityKey}) is ${job.state}`;
  if (job.state === 'pending' || job.state === 'running') {
    return action === 'retry'
      ? `${subject}: it is still in the queue and runs on its own`
      : `${subject}: it cannot be dropped while it may still run; after retry.maxAttempts failed tries it becomes a dead letter, which can then be dropped`;
  }
  if (job.state === 'superseded') {
    return `${subject} by job ${job.supersededBy}: nothing to ${action}`;
  }
  return `${subject}: nothing to ${action}`;
}

function mustGet(store: Store, id: number): StoredJob {
  const job = getStoredJob(store, id);
  if (job !== undefined) return job;
  throw adminError(
    `no job ${id} in the queue; \`homecare-sync queue list\` shows the ids`,
    id,
    'QUEUE_JOB_NOT_FOUND',
  );
}

function adminError(message: string, id: number, code: ErrorCode): PermanentError {
  return new PermanentError(message, { resource: 'queue', id: String(id), code });
}
