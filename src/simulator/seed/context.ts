import type { Faker } from '@faker-js/faker';
import type { ResourceName } from '../../contract/index.js';
import type { Therapy } from './catalog/therapies.js';
import type { SeedSizes } from './sizes.js';

export interface AddressRef {
  postalCodeId: string;
  postalCode: string;
  city: string;
}

export interface ArticleRef {
  _id: string;
  customerNumber: string;
  name: string;
  therapyIds: readonly number[];
  packagingUnits: ReadonlyArray<{ _id: string; unit: string; quantity: number }>;
}

export interface PatientRef {
  _id: string;
  regionId: string;
  /** The therapy the patient is mainly supplied for. */
  therapy: Therapy;
  deliveryAddress: Record<string, unknown>;
}

export interface IntegratedCareRef {
  _id: string;
  patient: PatientRef;
  therapy: Therapy;
  therapyTypeId: number;
  articles: readonly ArticleRef[];
}

/** An order the ERP has taken (it has a salesId): the source of an ERP order's feedback. */
export interface SalesOrderRef {
  salesId: string;
  patient: PatientRef;
  integratedCareId: string | undefined;
  therapy: Therapy;
  lines: ReadonlyArray<{ article: ArticleRef; quantity: number; unit: string }>;
}

/**
 * What later resources refer to. Only ids and the few fields a reference copies are kept, so a
 * run of 100,000 articles holds their ids, not the articles.
 */
export interface SeedRefs {
  userIds: string[];
  regionIds: string[];
  postalCodes: AddressRef[];
  payers: Array<{ _id: string; ikNumber: string; name: string }>;
  doctorIds: string[];
  hospitalIds: string[];
  nursingHomeIds: string[];
  nursingServiceIds: string[];
  pharmacyIds: string[];
  productGroups: Array<{ _id: string; type: number; therapyId: number }>;
  articles: ArticleRef[];
  articlesByTherapy: Map<number, ArticleRef[]>;
  contractArticleGroupIds: string[];
  patients: PatientRef[];
  integratedCares: IntegratedCareRef[];
  salesOrders: SalesOrderRef[];
}

export interface SeedContext {
  faker: Faker;
  now: Date;
  sizes: SeedSizes;
  /** Does the variant offer `resource`? */
  offers(resource: ResourceName): boolean;
  refs: SeedRefs;
  /** Next number of a running series (salesIds, contract numbers), unique within the run. */
  next(series: string): number;
}

export function emptyRefs(): SeedRefs {
  return {
    userIds: [],
    regionIds: [],
    postalCodes: [],
    payers: [],
    doctorIds: [],
    hospitalIds: [],
    nursingHomeIds: [],
    nursingServiceIds: [],
    pharmacyIds: [],
    productGroups: [],
    articles: [],
    articlesByTherapy: new Map(),
    contractArticleGroupIds: [],
    patients: [],
    integratedCares: [],
    salesOrders: [],
  };
}
