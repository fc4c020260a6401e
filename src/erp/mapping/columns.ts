import {
  entitySchema,
  listItemLeaves,
  schemaLeaves,
  type Leaf,
  type ResourceName,
} from '../../contract/index.js';
import { ORDER_LINES } from './rows.js';

/**
 * What the enrichment (src/deliver/enrich.ts) adds to orders and care arrangements: the ERP's own
 * keys and the patient's address block. Not in the platform's schemas, so named here.
 */
const PATIENT_BLOCK: readonly Leaf[] = [
  { path: 'patientCustomerId', numeric: false },
  ...['customerId', 'gender', 'title', 'firstName', 'lastName', 'address']
    .concat(['additionalAddress', 'additionalAddress2', 'postalCode', 'city', 'phone'])
    .map((field) => ({
      path: `patient.${field}`,
      numeric: field === 'gender' || field === 'title',
    })),
];
const ENRICHED: Partial<Record<ResourceName, { record: readonly Leaf[]; line: readonly Leaf[] }>> =
  {
    singleOrder: {
      record: [...PATIENT_BLOCK, { path: 'integratedCareSalesId', numeric: false }],
      line: [{ path: 'articleName', numeric: false }],
    },
    directOrder: { record: PATIENT_BLOCK, line: [{ path: 'articleName', numeric: false }] },
    integratedCare: { record: PATIENT_BLOCK, line: [] },
  };

/** What the enrichment adds to a resource's records, line fields as `<linesField>.<field>`. */
export function enrichedLeaves(resource: ResourceName): readonly Leaf[] {
  const enriched = ENRICHED[resource];
  const linesField = ORDER_LINES[resource];
  if (enriched === undefined) return [];
  const line =
    linesField === undefined
      ? []
      : enriched.line.map((leaf) => ({ ...leaf, path: `${linesField}.${leaf.path}` }));
  return [...enriched.record, ...line];
}

const cache = new Map<ResourceName, readonly Leaf[]>();

/**
 * The fixed columns of a resource's CSV: every scalar field of its schema (nested objects as dot
 * paths), then what the enrichment adds, then the fields of an order line. The same for every
 * file, whatever the records in it hold, so an ERP's import mapping never shifts.
 */
export function resourceColumns(resource: ResourceName): readonly Leaf[] {
  const known = cache.get(resource);
  if (known !== undefined) return known;
  const schema = entitySchema(resource);
  const linesField = ORDER_LINES[resource];
  const enriched = ENRICHED[resource];
  const columns = [
    ...schemaLeaves(schema),
    ...(enriched?.record ?? []),
    ...(linesField === undefined ? [] : listItemLeaves(schema, linesField)),
    ...(linesField === undefined
      ? []
      : (enriched?.line ?? []).map((leaf) => ({ ...leaf, path: `${linesField}.${leaf.path}` }))),
  ];
  cache.set(resource, columns);
  return columns;
}

/** Columns that hold numbers (also decimals sent as text), decided by the field, never the value. */
export function numericColumns(resource: ResourceName): ReadonlySet<string> {
  return new Set(
    resourceColumns(resource)
      .filter((leaf) => leaf.numeric)
      .map((leaf) => leaf.path),
  );
}
