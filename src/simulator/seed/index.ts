import { base, de, Faker } from '@faker-js/faker';
import { contractFor, type ResourceName, type Variant } from '../../contract/index.js';
import { SetupError } from '../../shared/errors.js';
import { articles, productGroups } from './articles.js';
import { contractArticleGroups, insuranceContracts } from './contracts.js';
import { emptyRefs, type SeedContext } from './context.js';
import { erpOrders } from './erpOrders.js';
import { attachments, documents } from './files.js';
import { integratedCares } from './integratedCares.js';
import { doctors, payers } from './medical.js';
import { institutions, postalCodes, regions, users } from './masterData.js';
import { directOrders, singleOrders } from './orders.js';
import { devices, patientHistory, patientNotes } from './patientRecords.js';
import { patients } from './patients.js';
import type { SeedRecord } from './record.js';
import { DEFAULT_SEED_SIZES, seedSizeProblems, type SeedSizes } from './sizes.js';

export { attachmentFile } from './attachmentFile.js';
export type { SeedRecord } from './record.js';
export { DEFAULT_SEED_SIZES, seedSizeProblems, type SeedSizes } from './sizes.js';

/** Each step makes one resource; the order is the order of dependency. */
const STEPS: ReadonlyArray<{
  resource: ResourceName;
  size: keyof SeedSizes;
  make: (ctx: SeedContext) => Generator<SeedRecord>;
}> = [
  { resource: 'region', size: 'regions', make: regions },
  { resource: 'postalCode', size: 'postalCodes', make: postalCodes },
  { resource: 'users', size: 'users', make: users },
  { resource: 'hospital', size: 'hospitals', make: (ctx) => institutions(ctx, 'hospital') },
  {
    resource: 'nursingHome',
    size: 'nursingHomes',
    make: (ctx) => institutions(ctx, 'nursingHome'),
  },
  {
    resource: 'nursingService',
    size: 'nursingServices',
    make: (ctx) => institutions(ctx, 'nursingService'),
  },
  { resource: 'pharmacy', size: 'pharmacies', make: (ctx) => institutions(ctx, 'pharmacy') },
  { resource: 'payer', size: 'payers', make: payers },
  { resource: 'doctor', size: 'doctors', make: doctors },
  { resource: 'productGroup', size: 'productGroups', make: productGroups },
  { resource: 'article', size: 'articles', make: articles },
  { resource: 'contractArticleGroup', size: 'contractArticleGroups', make: contractArticleGroups },
  { resource: 'insuranceContract', size: 'insuranceContracts', make: insuranceContracts },
  { resource: 'patient', size: 'patients', make: patients },
  { resource: 'patientNote', size: 'patientNotes', make: patientNotes },
  { resource: 'patientHistory', size: 'patientHistory', make: patientHistory },
  { resource: 'device', size: 'devices', make: devices },
  { resource: 'integratedCare', size: 'integratedCares', make: integratedCares },
  { resource: 'singleOrder', size: 'singleOrders', make: singleOrders },
  { resource: 'directOrder', size: 'directOrders', make: directOrders },
  { resource: 'erpOrder', size: 'erpOrders', make: erpOrders },
  { resource: 'document', size: 'documents', make: documents },
  { resource: 'attachment', size: 'attachments', make: attachments },
];

export interface SeedOptions {
  seed: number;
  variant: Variant;
  /** Every time in the data lies in the 30 days before it (next deliveries after it). */
  now: Date;
  sizes?: Partial<SeedSizes>;
}

/** The requested sizes, with 0 for every resource the variant does not offer. */
function sizesFor(variant: Variant, requested: Partial<SeedSizes> = {}): SeedSizes {
  const offered = new Set(contractFor(variant).operations.map((o) => o.resource));
  const sizes: SeedSizes = { ...DEFAULT_SEED_SIZES, ...requested };
  for (const step of STEPS) if (!offered.has(step.resource)) sizes[step.size] = 0;
  return sizes;
}

/**
 * The simulator's data for one tenant, one record at a time, parents before children. The same
 * options always give the same records: a seeded faker (German locale) and `now` are the only
 * sources. Only ids and a few fields of referenced records are kept, not the records.
 * Throws a SetupError at once when the sizes ask for children without parents.
 */
export function generateSeed(options: SeedOptions): Generator<SeedRecord> {
  if (Number.isNaN(options.now.getTime())) {
    throw new SetupError('seed: `now` is not a valid date; pass the simulator clock time');
  }
  const sizes = sizesFor(options.variant, options.sizes);
  const problems = seedSizeProblems(sizes);
  if (problems.length > 0) {
    throw new SetupError(`seed sizes do not fit together: ${problems.join('; ')}`, problems);
  }
  const faker = new Faker({ locale: [de, base] });
  faker.seed(options.seed);
  faker.setDefaultRefDate(options.now);
  const counters = new Map<string, number>();
  const offered = new Set(contractFor(options.variant).operations.map((o) => o.resource));
  const ctx: SeedContext = {
    faker,
    now: options.now,
    sizes,
    offers: (resource) => offered.has(resource),
    refs: emptyRefs(),
    next(series) {
      const value = (counters.get(series) ?? 100000) + 1;
      counters.set(series, value);
      return value;
    },
  };
  return records(ctx);
}

function* records(ctx: SeedContext): Generator<SeedRecord> {
  ctx.refs.userIds = Array.from({ length: ctx.sizes.users }, () => ctx.faker.string.uuid());
  for (const step of STEPS) {
    if (ctx.sizes[step.size] > 0) yield* step.make(ctx);
  }
}
