import { z } from 'zod';
import {
  base,
  bool,
  idStampArchived,
  num,
  numbers,
  obj,
  officeContact,
  personContact,
  str,
  strings,
} from './fields.js';

const institutionFields = {
  name: str,
  ...officeContact,
  website: str,
  platformConnect: bool,
  ...idStampArchived,
};

export const hospital = obj(institutionFields);
export const nursingHome = obj(institutionFields);
export const nursingService = obj(institutionFields);
export const pharmacy = obj(institutionFields);

export const doctor = obj({
  gender: num,
  titleShort: str,
  title: str,
  firstName: str,
  lastName: str,
  ...officeContact,
  emailPrescriptionRequest: str,
  faxPrescriptionRequest: str,
  website: str,
  lifelongNumber: str,
  siteNumber: str,
  institution: obj({ type: num, id: str, description: str }).nullish(),
  platformConnect: bool,
  isPartnerUser: bool,
  ...idStampArchived,
});

export const payer = obj({
  type: num,
  name: str,
  phone: str,
  email: str,
  fax: str,
  website: str,
  ikNumber: str,
  address: str,
  postalCode: str,
  city: str,
  ...idStampArchived,
});

export const postalCode = obj({
  postalCode: str,
  city: str,
  ...idStampArchived,
});
export const region = obj({
  label: str,
  parent: str,
  doNotChange: bool,
  ...idStampArchived,
});

export const users = obj({
  active: bool,
  salesPersonId: str,
  name: str,
  department: str,
  firstName: str,
  lastName: str,
  address: str,
  postalCodeId: str,
  ...personContact,
  ...idStampArchived,
});

export const productGroup = obj({
  ...base,
  number: num,
  medicalAidPositionNumber: str,
  name: str,
  description: str,
  parentId: str,
  type: z.number().int().min(0).max(2).nullish(),
  attributeTemplateIds: strings,
});

export const contractArticleGroup = obj({
  ...base,
  name: str,
  customerNumber: str,
  articleIds: strings,
  productGroupIds: strings,
});

export const insuranceContract = obj({
  ...base,
  tenant: str,
  name: str,
  description: str,
  validFrom: str,
  validTo: str,
  insuranceContractName: str,
  pricingBasis: str,
  flatChargeText: str,
  therapyId: num,
  pricingModelType: num,
  billingType: num,
  ageLimit: num,
  ageLimitLower: num,
  therapyTypeIds: numbers,
  payerIds: strings,
  notPayingPayerIds: strings,
  productGroupIds: strings,
  contractArticleGroupIds: strings,
  isSelfPayer: bool,
  costEstimateRequired: bool,
  approvalObligation: bool,
  periodOnPrescriptionNecessary: bool,
  flatChargeTextAllowed: bool,
  generalContract: bool,
});

export const document = obj({
  _id: str,
  name: str,
  patientId: str,
  therapyId: num,
  therapyTypeId: num,
  archived: bool,
  createdBy: str,
  updatedBy: str,
  createdAt: str,
  updatedAt: str,
});

export const attachment = obj({
  _id: str,
  filename: str,
  uploadDate: str,
  contentType: str,
  authorizedPartnerInstitutions: z
    .array(obj({ id: str, parentInstitutionId: str, institutionType: num }))
    .nullish(),
  createdByPartner: bool,
  metadata: obj({
    patientId: str,
    therapyId: num,
    therapyTypeId: num,
    woundLocation: str,
    createdAt: str,
    createdBy: str,
    updatedAt: str,
    updatedBy: str,
    archived: bool,
    relatedEntity: str,
    type: num,
  }).nullish(),
});

/** POST /attachment body (variant B): the file as base64. */
export const attachmentCreateBody = obj({
  data: z.base64(),
  metadata: obj({ patientId: z.string(), type: z.number() }),
  mime: z.string(),
  filename: z.string(),
});
