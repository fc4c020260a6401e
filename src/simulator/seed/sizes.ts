/** How many records of each resource the seed makes. */
export interface SeedSizes {
  regions: number;
  users: number;
  doctors: number;
  payers: number;
  hospitals: number;
  nursingHomes: number;
  nursingServices: number;
  pharmacies: number;
  postalCodes: number;
  productGroups: number;
  articles: number;
  patients: number;
  patientNotes: number;
  patientHistory: number;
  devices: number;
  integratedCares: number;
  singleOrders: number;
  directOrders: number;
  erpOrders: number;
  documents: number;
  attachments: number;
  contractArticleGroups: number;
  insuranceContracts: number;
}

/**
 * Small enough for fast tests, large enough that every status filter group of orders and care
 * arrangements, and archived records of most resources, occur at least once.
 */
export const DEFAULT_SEED_SIZES: SeedSizes = {
  regions: 4,
  users: 8,
  doctors: 8,
  payers: 6,
  hospitals: 3,
  nursingHomes: 3,
  nursingServices: 3,
  pharmacies: 3,
  postalCodes: 20,
  productGroups: 9,
  articles: 40,
  patients: 12,
  patientNotes: 20,
  patientHistory: 15,
  devices: 6,
  integratedCares: 16,
  singleOrders: 20,
  directOrders: 10,
  erpOrders: 6,
  documents: 10,
  attachments: 8,
  contractArticleGroups: 4,
  insuranceContracts: 4,
};

/** Records of these resources cannot exist without at least one of the other. */
const NEEDS: ReadonlyArray<readonly [keyof SeedSizes, keyof SeedSizes, string]> = [
  ['patients', 'regions', 'every patient belongs to a region'],
  ['patients', 'users', 'every patient has a field nurse'],
  ['patientNotes', 'patients', 'a note belongs to a patient'],
  ['patientHistory', 'patients', 'a history entry belongs to a patient'],
  ['devices', 'patients', 'a device is lent to a patient'],
  ['devices', 'articles', 'a device is an article'],
  ['integratedCares', 'patients', 'a care arrangement belongs to a patient'],
  ['integratedCares', 'articles', 'a care arrangement proposes articles'],
  ['singleOrders', 'integratedCares', 'a single order belongs to a care arrangement'],
  ['directOrders', 'patients', 'a direct order is for a patient'],
  ['directOrders', 'articles', 'a direct order has article lines'],
  ['erpOrders', 'patients', 'an ERP order is for a patient'],
  ['erpOrders', 'articles', 'an ERP order has article lines'],
  ['documents', 'patients', 'a document belongs to a patient'],
  ['attachments', 'patients', 'an attachment belongs to a patient'],
  ['contractArticleGroups', 'articles', 'a contract article group lists articles'],
];

/** Every way `sizes` asks for records whose parents it does not make, or for odd counts. */
export function seedSizeProblems(sizes: SeedSizes): string[] {
  const problems: string[] = [];
  for (const [name, value] of Object.entries(sizes)) {
    if (!Number.isSafeInteger(value) || value < 0) {
      problems.push(`sizes.${name} must be a whole number of 0 or more, got ${String(value)}`);
    }
  }
  if (sizes.users < 1) problems.push('sizes.users must be at least 1: users create every record');
  for (const [child, parent, why] of NEEDS) {
    if (sizes[child] > 0 && sizes[parent] < 1) {
      problems.push(`sizes.${child} is ${sizes[child]} but sizes.${parent} is 0: ${why}`);
    }
  }
  return problems;
}
