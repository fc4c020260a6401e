import type { Logger } from '../log/index.js';
import type { Store } from '../store/index.js';
import { insertJob } from '../store/index.js';
import type { NewJob } from './types.js';

export interface Enqueued {
  id: number;
  /** False when a job with the same idempotency key was queued before; `id` is that job's. */
  queued: boolean;
  /** Older pending jobs of the same kind and entity this job replaced. */
  superseded: number[];
}

/**
 * Queues a job, ready to run now. Synchronous, so a caller can queue inside its own
 * transaction (the job commits with the change that made it due, or not at all).
 */
export function enqueue(store: Store, job: NewJob, logger?: Logger): Enqueued {
  const result = insertJob(store, {
    kind: job.kind,
    entityKey: job.entityKey,
    payload: job.payload,
    idempotencyKey: job.idempotencyKey,
    supersedes: job.supersedes === true,
  });
  if (result.queued) store.jobsQueued.tell(job.kind);
  if (result.superseded.length > 0) {
    logger?.info(
      { jobId: result.id, kind: job.kind, entityKey: job.entityKey, superseded: result.superseded },
      `queue: job ${result.id} replaces older pending job(s) ${result.superseded.join(', ')} of ${job.entityKey}`,
    );
  }
  return result;
}
