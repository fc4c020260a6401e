import type { DeliverKind, Handler, JobKind } from '../queue/types.js';
import { acknowledgeIntegratedCare, acknowledgeOrder } from './acknowledge.js';
import { pushArticle } from './article.js';
import { pushAttachment } from './attachment.js';
import { pushIntegratedCare, pushPatientNote } from './care.js';
import { pushContract } from './contracts.js';
import { pushDevice } from './device.js';
import { pushErpOrder } from './erpOrder.js';
import { pushOrderStatus } from './orderStatus.js';
import { pushPatient } from './patient.js';
import { pushProductGroup } from './productGroup.js';

/**
 * One handler for every job kind that talks to the platform: the acknowledgements and each
 * push-back the ERP sends. The hand-overs to the ERP (`deliver.<resource>`) are the delivery
 * stage's (src/deliver/deliver.ts).
 */
export function createHandlers(): Record<Exclude<JobKind, DeliverKind>, Handler> {
  return {
    'ack.singleOrder': acknowledgeOrder('singleOrder'),
    'ack.directOrder': acknowledgeOrder('directOrder'),
    'ack.integratedCare': acknowledgeIntegratedCare,
    orderStatus: pushOrderStatus,
    erpOrder: pushErpOrder,
    article: pushArticle,
    patient: pushPatient,
    patientNote: pushPatientNote,
    device: pushDevice,
    integratedCare: pushIntegratedCare,
    attachment: pushAttachment,
    productGroup: pushProductGroup,
    contractArticleGroup: pushContract('contractArticleGroup'),
    insuranceContract: pushContract('insuranceContract'),
  };
}

export { NOT_KNOWN_GRACE_ATTEMPTS, NOT_KNOWN_RETRY_AFTER_MS } from './failures.js';
