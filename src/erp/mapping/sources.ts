import {
  entitySchema,
  listItemLeaves,
  schemaLeaves,
  type Leaf,
  type ResourceName,
} from '../../contract/index.js';
import { merged, shapeOf, type Shape } from './shape.js';

/**
 * What an outbound record of a resource holds, which a mapping's sources name: the platform's
 * schema of the entity, what the enrichment adds, and its order lines, which a CSV file writes
 * a row each (the order's columns repeated) and a mapping reads as `<linesField>.x` per line.
 */
const ORDER_LINES: Partial<Record<ResourceName, string>> = {
  singleOrder: 'orderedArticleLines',
  directOrder: 'orderedArticleLines',
  erpOrder: 'erpOrderedArticleLines',
};

export const linesFieldOf = (resource: ResourceName): string | undefined => ORDER_LINES[resource];

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

/** What the enrichment adds to a resource's records, and to each line as `<linesField>.<field>`. */
function enriched(resource: ResourceName): { record: readonly Leaf[]; line: Leaf[] } {
  const { record = [], line = [] } = ENRICHED[resource] ?? {};
  const linesField = linesFieldOf(resource);
  const lines = linesField === undefined ? [] : line;
  return { record, line: lines.map((leaf) => ({ ...leaf, path: `${linesField}.${leaf.path}` })) };
}

const leaves = new Map<ResourceName, readonly Leaf[]>();

/**
 * Every scalar field of a resource's records: each of its schema (nested objects as dot paths),
 * then what the enrichment adds, then the fields of an order line. The fixed columns of its CSV
 * file, the same for every file whatever the records in it hold, so an ERP's import never shifts.
 */
export function resourceColumns(resource: ResourceName): readonly Leaf[] {
  const known = leaves.get(resource);
  if (known !== undefined) return known;
  const schema = entitySchema(resource);
  const linesField = linesFieldOf(resource);
  const added = enriched(resource);
  const columns = [
    ...schemaLeaves(schema),
    ...added.record,
    ...(linesField === undefined ? [] : listItemLeaves(schema, linesField)),
    ...added.line,
  ];
  leaves.set(resource, columns);
  return columns;
}

/** Whether the field at `path` holds a number (also a decimal sent as text), by the schema. */
export const isNumericSource = (resource: ResourceName, path: string): boolean =>
  resourceColumns(resource).some((leaf) => leaf.numeric && leaf.path === path);

/** A shape holding only `path` (through `linesField`'s list) that ends in `leaf`. */
function pathShape(path: readonly string[], leaf: Shape, linesField: string | undefined): Shape {
  const [key, ...rest] = path;
  if (key === undefined) return leaf;
  const inner = pathShape(rest, leaf, undefined);
  const field: Shape = key === linesField ? { kind: 'array', item: inner } : inner;
  return { kind: 'object', fields: new Map([[key, field]]) };
}

const leafOf = (leaf: Leaf): Shape => ({ kind: 'leaf', type: leaf.numeric ? 'number' : 'string' });

const shapes = new Map<ResourceName, Shape>();

/** What an outbound record of `resource` can hold, where a mapping's source path must lead. */
export function sourceShape(resource: ResourceName): Shape {
  const known = shapes.get(resource);
  if (known !== undefined) return known;
  const linesField = linesFieldOf(resource);
  const added = enriched(resource);
  let shape = shapeOf(entitySchema(resource));
  for (const leaf of [...added.record, ...added.line]) {
    shape = merged(shape, pathShape(leaf.path.split('.'), leafOf(leaf), linesField));
  }
  shapes.set(resource, shape);
  return shape;
}
