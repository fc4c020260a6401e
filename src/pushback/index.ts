/**
 * Stage 3, push back: one descriptor per kind the ERP reports (kinds/), the acknowledgement's
 * write, and the one way a platform write is made once.
 */
import type { AckKind, Handler } from '../queue/types.js';
import { acknowledgeIntegratedCare, acknowledgeOrder } from './acknowledge.js';
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
