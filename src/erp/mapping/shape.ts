import { z } from 'zod';
import { isDecimalText, unwrapped } from '../../contract/schemas/leaves.js';

/**
 * What a record or a message can hold, as a mapping's paths and the message check walk it: the
 * keys of objects, what lists hold, the JSON type of a leaf. Built once per inbox kind, so that
 * a message is checked in one pass without zod (which copies every object, an issue per fault).
 */
export type JsonType = 'string' | 'number' | 'boolean';

export type Shape =
  /** Only `fields` are known; any other key is an unknown field. */
  | { kind: 'object'; fields: ReadonlyMap<string, Shape> }
  | { kind: 'array'; item: Shape }
  /** Keys are free (`z.record`); every value has the shape `value`. */
  | { kind: 'record'; value: Shape }
  | { kind: 'union'; options: readonly Shape[] }
  /**
   * `values`: an enumeration's values, the only ones it takes. `decimal`: a decimal number the
   * platform holds as text (prices: `"25.47"`).
   */
  | { kind: 'leaf'; type: JsonType; values?: readonly (string | number)[]; decimal?: true }
  /** The contract leaves it open (`z.unknown()`, `z.looseObject({})`): only the bounds apply. */
  | { kind: 'open' };

export const OPEN: Shape = { kind: 'open' };

function objectShape(schema: z.ZodObject): Shape {
  const entries = Object.entries<z.ZodType>(schema.shape);
  if (entries.length === 0) return OPEN;
  return { kind: 'object', fields: new Map(entries.map(([key, field]) => [key, shapeOf(field)])) };
}

function enumShape(values: readonly (string | number)[]): Shape {
  const types = new Set(values.map((value) => typeof value));
  const [only] = types;
  if (types.size !== 1 || (only !== 'string' && only !== 'number')) return OPEN;
  return { kind: 'leaf', type: only, values };
}

const leaf = (type: JsonType): Shape => ({ kind: 'leaf', type });

/**
 * The walker's view of `schema`. String formats (`z.base64()`) are told by their definition's
 * type, not by class: they are no `ZodString` instances in zod 4. What the walker cannot read
 * (literals, pipes, custom checks) is left open for zod to judge.
 */
export function shapeOf(schema: z.ZodType): Shape {
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodObject) return objectShape(inner);
  if (inner instanceof z.ZodArray)
    return { kind: 'array', item: shapeOf(inner.element as z.ZodType) };
  if (inner instanceof z.ZodRecord)
    return { kind: 'record', value: shapeOf(inner.valueType as z.ZodType) };
  if (inner instanceof z.ZodUnion) {
    return { kind: 'union', options: inner.options.map((option) => shapeOf(option as z.ZodType)) };
  }
  if (inner instanceof z.ZodEnum) return enumShape(inner.options);
  if (isDecimalText(inner)) return { kind: 'leaf', type: 'string', decimal: true };
  const type = inner.def.type;
  return type === 'string' || type === 'number' || type === 'boolean' ? leaf(type) : OPEN;
}

type Leaf = Extract<Shape, { kind: 'leaf' }>;

/** Whether `shape`, or an option of it (or an item of a list of it, `throughLists`), is a leaf `test` takes. */
export function hasLeaf(
  shape: Shape,
  test: (leaf: Leaf) => boolean,
  throughLists = false,
): boolean {
  if (shape.kind === 'union') return shape.options.some((o) => hasLeaf(o, test, throughLists));
  if (shape.kind === 'array' && throughLists) return hasLeaf(shape.item, test, throughLists);
  return shape.kind === 'leaf' && test(shape);
}

/**
 * The shape of the field at `path` below `shape` (lists gone through), or undefined when it has
 * no such field.
 */
export function fieldShape(shape: Shape, path: readonly string[]): Shape | undefined {
  let current: Shape | undefined = shape;
  for (const key of path) {
    if (current?.kind === 'array') current = current.item;
    if (current?.kind !== 'object') return undefined;
    current = current.fields.get(key);
  }
  return current;
}

/**
 * `primary` with the keys only `extra` has. The contract's entity schema is the primary: the
 * minimum's `z.looseObject({})` asks for an object, it does not open the contract's one, and
 * what the contract leaves open stays open.
 */
export function merged(primary: Shape, extra: Shape): Shape {
  if (primary.kind === 'array' && extra.kind === 'array') {
    return { kind: 'array', item: merged(primary.item, extra.item) };
  }
  if (primary.kind !== 'object' || extra.kind !== 'object') return primary;
  const fields = new Map(primary.fields);
  for (const [key, shape] of extra.fields) {
    const known = fields.get(key);
    fields.set(key, known === undefined ? shape : merged(known, shape));
  }
  return { kind: 'object', fields };
}

/** Which shape a JSON value fits, for the message check and the pruning alike. */
export type Received = JsonType | 'object' | 'array';

export const receivedOf = (value: unknown): Received =>
  Array.isArray(value) ? 'array' : (typeof value as Received);

function accepts(shape: Shape, received: Received): boolean {
  switch (shape.kind) {
    case 'open':
      return true;
    case 'leaf':
      return shape.type === received;
    case 'array':
      return received === 'array';
    case 'union':
      return shape.options.some((option) => accepts(option, received));
    default:
      return received === 'object';
  }
}

function knownKeys(shape: Shape, value: object): number {
  if (shape.kind !== 'object') return 0;
  return Object.keys(value).filter((key) => shape.fields.has(key)).length;
}

/**
 * The shape a value is checked against: for a union, the option whose type fits the value
 * (of several object options, the one knowing most of its keys); undefined when none fits.
 */
export function shapeFor(shape: Shape, value: unknown): Shape | undefined {
  const received = receivedOf(value);
  if (shape.kind !== 'union') return accepts(shape, received) ? shape : undefined;
  const fitting = shape.options.filter((option) => accepts(option, received));
  if (fitting.length <= 1 || received !== 'object') return fitting[0];
  const object = value as object;
  return fitting.reduce((best, option) =>
    knownKeys(option, object) > knownKeys(best, object) ? option : best,
  );
}

export function expectedText(shape: Shape): string {
  if (shape.kind === 'union') return [...new Set(shape.options.map(expectedText))].join(' or ');
  if (shape.kind === 'leaf') return shape.type;
  return shape.kind === 'array' ? 'array' : 'object';
}
