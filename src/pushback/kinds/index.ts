import type { PushBackKind } from '../descriptor.js';
import { article } from './article.js';
import { attachment } from './attachment.js';
import { contractArticleGroup } from './contractArticleGroup.js';
import { device } from './device.js';
import { erpOrder } from './erpOrder.js';
import { insuranceContract } from './insuranceContract.js';
import { integratedCare } from './integratedCare.js';
import { orderStatus } from './orderStatus.js';
import { patient } from './patient.js';
import { patientNote } from './patientNote.js';
import { productGroup } from './productGroup.js';

/**
 * Every kind of message the ERP sends back, registered once: the composition root hands the
 * inbox, the endpoint and the queue what each needs of them. The order is the folders' and the
 * endpoint's listing.
 */
export const PUSH_BACK_KINDS = [
  orderStatus,
  erpOrder,
  article,
  patient,
  patientNote,
  device,
  integratedCare,
  attachment,
  productGroup,
  contractArticleGroup,
  insuranceContract,
] as const satisfies readonly PushBackKind[];

/** A push-back kind's name: spelled only in its descriptor. */
export type PushBackKindName = (typeof PUSH_BACK_KINDS)[number]['name'];
