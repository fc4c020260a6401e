/**
 * Mechanism: the durable retry queue. Claim, back-off, group commit, dead letters; runs the
 * handlers it is given and knows job kinds only as data.
 */
export * from './types.js';
export {
  archivalJob,
  archivalLedgerId,
  deliveryJob,
  queueArchival,
  queueDelivery,
} from './deliveryJob.js';
export { enqueue, type Enqueued } from './enqueue.js';
export { handlerJob } from './runJob.js';
export { sentText, sentValues } from './jobReport.js';
export { backoffMs, failureOutcome, type FailureOutcome, type RetrySettings } from './outcome.js';
export { createQueueWorker, type QueueWorker, type QueueWorkerOptions } from './worker.js';
export {
  dropJob,
  getJob,
  listJobs,
  redeliver,
  retryJob,
  type JobDetails,
  type JobListing,
  type Redelivery,
} from './admin.js';
