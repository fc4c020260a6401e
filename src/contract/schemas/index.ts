import type { z } from 'zod';
import type { ResourceName } from '../resources.js';
import { article } from './article.js';
import * as master from './masterData.js';
import { directOrder, erpOrder, integratedCare, singleOrder } from './orders.js';
import { device, patient, patientCustomerMapping, patientHistory, patientNote } from './patient.js';

export { attachmentCreateBody } from './masterData.js';

/** The zod schema of every resource's entity (spec document 2, "Resources and their fields"). */
export const ENTITY_SCHEMAS: Record<ResourceName, z.ZodType<Record<string, unknown>>> = {
  patient,
  patientCustomerMapping,
  patientNote,
  patientHistory,
  singleOrder,
  directOrder,
  integratedCare,
  erpOrder,
  article,
  device,
  doctor: master.doctor,
  payer: master.payer,
  hospital: master.hospital,
  nursingHome: master.nursingHome,
  nursingService: master.nursingService,
  pharmacy: master.pharmacy,
  region: master.region,
  users: master.users,
  postalCode: master.postalCode,
  attachment: master.attachment,
  contractArticleGroup: master.contractArticleGroup,
  insuranceContract: master.insuranceContract,
  productGroup: master.productGroup,
  document: master.document,
};

export function entitySchema(resource: ResourceName): z.ZodType<Record<string, unknown>> {
  return ENTITY_SCHEMAS[resource];
}

/** Zod issues as sentences that name the field path, e.g. `packagingUnits.0.quantity: ...`. */
export function issueProblems(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    return path === '' ? issue.message : `${path}: ${issue.message}`;
  });
}

export * from './identity.js';
export * from './leaves.js';
