import type { AckKind, Handler } from '../queue/types.js';
import { acknowledgeIntegratedCare, acknowledgeOrder } from './acknowledge.js';
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
