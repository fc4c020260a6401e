import type { Logger } from '../log/index.js';
import type { Store } from '../store/index.js';
import { insertJob } from '../store/index.js';
import type { JobKind, NewJob } from './types.js';

/**
 * Kinds whose job carries the entity's whole state: a newer one makes an older, still pending
 * one of the same entity pointless. The others (order status steps, acknowledgements, notes,
 * attachments, product groups) are each a step of their own and never replace one another.
 */
export const SUPERSEDING_KINDS: readonly JobKind[] = [
  'article',
  'patient',
  'device',
  'erpOrder',
  'contractArticleGroup',
  'insuranceContract',
];

export function isSuperseding(kind: string): boolean {
  return (SUPERSEDING_KINDS as readonly string[]).includes(kind);
}

/**
 * Who is told, in this process, that a job of a kind was queued on a store (the worker, to wake
 * the channel that runs the kind).
 */
const listeners = new WeakMap<Store, Set<(kind: JobKind) => void>>();

/**
 * Calls `listener` with the job's kind whenever `enqueue` queues a job on `store` in this process (possibly inside
 * a transaction not yet committed: a hint to look, never a promise that the job is there).
 * Returns the function that stops it.
 */
export function onJobQueued(store: Store, listener: (kind: JobKind) => void): () => void {
  const set = listeners.get(store) ?? new Set();
  listeners.set(store, set);
  set.add(listener);
  return () => set.delete(listener);
}

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
    supersedes: isSuperseding(job.kind),
  });
  if (result.queued) for (const listener of listeners.get(store) ?? []) listener(job.kind);
  if (result.superseded.length > 0) {
    logger?.info(
      { jobId: result.id, kind: job.kind, entityKey: job.entityKey, superseded: result.superseded },
      `queue: job ${result.id} replaces older pending job(s) ${result.superseded.join(', ')} of ${job.entityKey}`,
    );
  }
  return result;
}
