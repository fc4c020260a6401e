/**
 * Stage 3, push back: one descriptor per kind the ERP reports (kinds/), the acknowledgement's
 * write, and the one way a platform write is made once.
 */
import type { AckKind, Handler, Job } from '../queue/types.js';
import { acknowledgeIntegratedCare, acknowledgeOrder } from './acknowledge.js';
import { previewJob, type Preview } from './preview/run.js';
export { planAcknowledgement } from './acknowledge.js';
import { pushBackHandlers } from './registry.js';

/**
 * One handler for every job kind that talks to the platform: the acknowledgements (queued by
 * the delivery stage, so they have no inbox schema) and each push-back kind the ERP sends
 * (kinds/). The hand-overs to the ERP (`deliver.<resource>`) are the delivery stage's
 * (src/deliver/deliver.ts).
 */
export function createHandlers(): Record<AckKind, Handler> & Record<string, Handler> {
  const acknowledgements: Record<AckKind, Handler> = {
    'ack.singleOrder': acknowledgeOrder('singleOrder'),
    'ack.directOrder': acknowledgeOrder('directOrder'),
    'ack.integratedCare': acknowledgeIntegratedCare,
  };
  return { ...acknowledgements, ...pushBackHandlers() };
}

/**
 * What a platform write's job would write (`inbox check`, `sync --dry-run`, re-deriving our
 * writes after a restore): its own handler run against the noting core (preview/).
 */
export function previewOfJob(job: Job, context: Parameters<typeof previewJob>[2]): Promise<Preview> {
  const handler = createHandlers()[job.kind];
  if (handler === undefined) throw new Error(`${job.kind} writes nothing to the platform`);
  return previewJob(handler, job, context);
}
export { freshJob, type Preview } from './preview/run.js';
export type { NotedRequest, NotedWrite } from './preview/notingCore.js';
export { mirrorCore } from './preview/mirrorCore.js';

export { PUSH_BACK_KINDS, type PushBackKindName } from './kinds/index.js';
export {
  isPushBackKind,
  jobFromInbox,
  planOf,
  PUSH_BACK_KIND_NAMES,
  supersedingKind,
} from './registry.js';
export {
  plannedRequest,
  type Plan,
  type PlannedRequest,
  type PlannedWrite,
  type PlanView,
} from './plan.js';
export { NOT_KNOWN_GRACE_ATTEMPTS, NOT_KNOWN_RETRY_AFTER_MS } from './once/failures.js';
export { recordTriedChange } from './once/write.js';
export { noteInterruptedWrites, noteWritesUnderWay } from './once/interrupted.js';
export { planOfJob } from './jobPlan.js';
export type { InboundResult } from './intake.js';
