import { z } from 'zod';

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
    const next: z.ZodType | undefined = shape[key];
    current = next === undefined ? undefined : unwrap(next);
  }
  return current;
}

const TRUE = new Set(['true', '1', 'ja', 'yes', 'x']);
const FALSE = new Set(['false', '0', 'nein', 'no']);

export type Cell = { value: unknown } | { problem: string };

export function toNumber(text: string, decimalComma: boolean): Cell {
  const normalised = decimalComma ? text.replace(',', '.') : text;
  const value = Number(normalised);
  return normalised.trim() !== '' && Number.isFinite(value)
    ? { value }
    : { problem: `expected a number, got "${text}"` };
}

export function toBoolean(text: string): Cell {
  const lower = text.trim().toLowerCase();
  if (TRUE.has(lower)) return { value: true };
  if (FALSE.has(lower)) return { value: false };
  return { problem: `expected true or false, got "${text}"` };
}

/** Lists are written `a|b|c` in one cell. */
export function cellValue(
  schema: z.ZodType | undefined,
  text: string,
  decimalComma: boolean,
): Cell {
  if (schema instanceof z.ZodNumber) return toNumber(text, decimalComma);
  if (schema instanceof z.ZodBoolean) return toBoolean(text);
  if (schema instanceof z.ZodArray) {
    const element = unwrap(schema.element as z.ZodType);
    const values: unknown[] = [];
    for (const part of text.split('|')) {
      const cell = cellValue(element, part.trim(), decimalComma);
      if ('problem' in cell) return cell;
      values.push(cell.value);
    }
    return { value: values };
  }
  return { value: text };
}
