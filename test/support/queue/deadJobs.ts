import { enqueue, type NewJob } from '../../../src/queue/index.js';
import { PermanentError } from '../../../src/shared/errors.js';
import type { QueueHarness } from './queueHarness.js';

/** A handler the platform refuses for good (HTTP 400): its job goes dead at once. */
export const refused = () =>
  Promise.reject(new PermanentError('answered HTTP 400', { status: 400 }));

/** Queues the jobs and runs them once through handlers that refuse every one; their ids. */
export async function deadJobs(h: QueueHarness, ...jobs: NewJob[]): Promise<number[]> {
  const ids = jobs.map((job) => enqueue(h.store, job).id);
  await h.worker({ orderStatus: refused, patient: refused }).runUntilEmpty();
  return ids;
}

/** An order status job of order `key`. */
export const statusJob = (key: string): NewJob => ({
  kind: 'orderStatus',
  entityKey: `singleOrder:${key}`,
  payload: { id: key },
});
