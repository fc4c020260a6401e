import type { HandlerRegistry, JobKind, Handler } from '../types.js';
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
import { redeliver } from './redeliver.js';

/** One handler for every job kind: the acknowledgements and each push-back the ERP sends. */
export function createHandlers(): HandlerRegistry {
  const handlers: Record<JobKind, Handler> = {
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
    'erp.redeliver': redeliver,
  };
  return handlers;
}

export { NOT_KNOWN_GRACE_ATTEMPTS, NOT_KNOWN_RETRY_AFTER_MS } from './failures.js';
