import { entitySchema, type Leaf, type ResourceName } from '../../contract/index.js';
import { enrichedLeaves, numericColumns } from './columns.js';
import { ORDER_LINES } from './rows.js';
import { merged, shapeOf, type Shape } from './shape.js';

/** A shape holding only `path` (through `linesField`'s list) that ends in `leaf`. */
function pathShape(path: readonly string[], leaf: Shape, linesField: string | undefined): Shape {
  const [key, ...rest] = path;
  if (key === undefined) return leaf;
  const inner = pathShape(rest, leaf, undefined);
  const field: Shape = key === linesField ? { kind: 'array', item: inner } : inner;
  return { kind: 'object', fields: new Map([[key, field]]) };
}

const leafOf = (leaf: Leaf): Shape => ({ kind: 'leaf', type: leaf.numeric ? 'number' : 'string' });

const cache = new Map<ResourceName, Shape>();

/**
 * What an outbound record of `resource` can hold: the platform's schema of the entity and what
 * the enrichment adds (the ERP's own keys, the patient block). A source path of a mapping must
 * lead somewhere in it.
 */
export function sourceShape(resource: ResourceName): Shape {
  const known = cache.get(resource);
  if (known !== undefined) return known;
  const linesField = ORDER_LINES[resource];
  let shape = shapeOf(entitySchema(resource));
  for (const leaf of enrichedLeaves(resource)) {
    shape = merged(shape, pathShape(leaf.path.split('.'), leafOf(leaf), linesField));
  }
  cache.set(resource, shape);
  return shape;
}

/** The list of a resource's records that a mapping may write one row (or entry) per item of. */
export const linesFieldOf = (resource: ResourceName): string | undefined => ORDER_LINES[resource];

/** Whether the field at `path` holds a number (also a decimal sent as text), by the schema. */
export const isNumericSource = (resource: ResourceName, path: string): boolean =>
  numericColumns(resource).has(path);
