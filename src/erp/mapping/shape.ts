import { z } from 'zod';
import { isDecimalText, unwrapped } from '../../contract/schemas/leaves.js';

/**
 * What the field walker needs of a zod schema: which keys an object may have, what lists hold,
 * and the JSON type of a leaf. Built once per inbox kind, so that a message is checked in one
 * pass over its values without zod (which copies every object and builds an issue per fault).
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
