import type { BodyRule } from './body.js';

/** POST /erpOrder: "Required by rule" (spec document 2, ERP order). */
export const ERP_ORDER_CREATE: BodyRule = {
  required: ['salesId', 'patientId', 'outboundDate', 'deliveryAddress', 'erpOrderedArticleLines'],
  nonEmpty: ['erpOrderedArticleLines'],
};
/** PUT /erpOrder/{salesId}: "same required data as POST", the salesId being in the path. */
export const ERP_ORDER_REPLACE: BodyRule = {
  required: ['patientId', 'outboundDate', 'deliveryAddress', 'erpOrderedArticleLines'],
  nonEmpty: ['erpOrderedArticleLines'],
};
/**
 * "In variant B the body schema marks every field required": every ERP order field a client
 * writes. Left out are the ones the platform sets itself (`_id`, `timestamp`, `archived`) and
 * `regionId`, which "is taken from the patient" (our reading, docs/readme/simulator.md).
 */
export const ERP_ORDER_SCHEMA_FIELDS_B = [
  'salesId',
  'patientId',
  'annotation',
  'prescriptionStatus',
  'trackingLink',
  'therapyId',
  'deliveryAddress',
  'outboundDate',
  'completed',
  'erpOrderedArticleLines',
  'trackingInfo',
];
