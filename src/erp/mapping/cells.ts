import { z } from 'zod';
import { isDecimalText } from '../../contract/index.js';
import { readNumber, readNumberText, type NumberGrammar } from './numbers.js';

/**
 * Turns the text of a CSV cell into the type the entity schema expects at that field, so the
 * contract's schema stays the one place that knows field types.
 */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

/** The schema of the field at `path`, or undefined when the entity has no such field. */
export function fieldSchema(schema: z.ZodType, path: readonly string[]): z.ZodType | undefined {
  let current: z.ZodType | undefined = unwrap(schema);
  for (const key of path) {
    if (current instanceof z.ZodArray) current = unwrap(current.element as z.ZodType);
    if (!(current instanceof z.ZodObject)) return undefined;
    const shape = current.shape as Record<string, z.ZodType | undefined>;
    // Own keys only: `__proto__` or `constructor` is no field, whatever a header says.
    const next: z.ZodType | undefined = Object.hasOwn(shape, key) ? shape[key] : undefined;
    current = next === undefined ? undefined : unwrap(next);
  }
  return current;
}

const TRUE = new Set(['true', '1', 'ja', 'yes', 'x']);
const FALSE = new Set(['false', '0', 'nein', 'no']);

export type Cell = { value: unknown } | { problem: string };

export function toBoolean(text: string): Cell {
  const lower = text.trim().toLowerCase();
  if (TRUE.has(lower)) return { value: true };
  if (FALSE.has(lower)) return { value: false };
  return { problem: `expected true or false, got "${text}"` };
}

/**
 * Lists are written `a|b|c` in one cell; numbers as `number` says (numbers.ts), decimals the
 * platform holds as text as such text (`1.000,50` → `1000.50`).
 */
export function cellValue(
  schema: z.ZodType | undefined,
  text: string,
  number: NumberGrammar,
): Cell {
  if (schema instanceof z.ZodNumber) return readNumber(text.trim(), number);
  if (schema !== undefined && isDecimalText(schema)) {
    const read = readNumberText(text.trim(), number);
    return 'problem' in read ? read : { value: read.text };
  }
  if (schema instanceof z.ZodBoolean) return toBoolean(text);
  if (schema instanceof z.ZodArray) {
    const element = unwrap(schema.element as z.ZodType);
    const values: unknown[] = [];
    for (const part of text.split('|')) {
      const cell = cellValue(element, part.trim(), number);
      if ('problem' in cell) return cell;
      values.push(cell.value);
    }
    return { value: values };
  }
  return { value: text };
}
