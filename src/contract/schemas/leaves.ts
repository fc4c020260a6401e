import { z } from 'zod';
import { DECIMAL_TEXT } from './fields.js';

/** One scalar field of an entity, by dot path. */
export interface Leaf {
  path: string;
  /** A number, or a decimal number sent as text (see `decimalStr`). */
  numeric: boolean;
}

/** The schema inside `.optional()`, `.nullable()`, `.nullish()` and defaults. */
export function unwrapped(schema: z.ZodType): z.ZodType {
  let current = schema;
  while (
    current instanceof z.ZodOptional ||
    current instanceof z.ZodNullable ||
    current instanceof z.ZodDefault
  ) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

/** A decimal number the platform holds as text (`decimalStr`), told by the field, not the value. */
export const isDecimalText = (schema: z.ZodType): boolean =>
  schema instanceof z.ZodString && schema.meta()?.format === DECIMAL_TEXT;

const isNumeric = (schema: z.ZodType): boolean =>
  schema instanceof z.ZodNumber || isDecimalText(schema);

/**
 * Every scalar field of an object schema, nested objects flattened to dot paths, in the order
 * the schema declares them. Lists and fields of unknown shape are left out: they are no column.
 */
export function schemaLeaves(schema: z.ZodType, prefix = ''): Leaf[] {
  const object = unwrapped(schema);
  if (!(object instanceof z.ZodObject)) return [];
  const leaves: Leaf[] = [];
  for (const [key, field] of Object.entries<z.ZodType>(object.shape)) {
    const inner = unwrapped(field);
    if (inner instanceof z.ZodObject) leaves.push(...schemaLeaves(inner, `${prefix}${key}.`));
    else if (!(inner instanceof z.ZodArray) && !(inner instanceof z.ZodUnknown)) {
      leaves.push({ path: `${prefix}${key}`, numeric: isNumeric(inner) });
    }
  }
  return leaves;
}

/** The scalar fields of the items of a list field (`orderedArticleLines`), as `field.leaf`. */
export function listItemLeaves(schema: z.ZodType, field: string): Leaf[] {
  const object = unwrapped(schema);
  if (!(object instanceof z.ZodObject)) return [];
  const list = unwrapped((object.shape as Record<string, z.ZodType>)[field] ?? z.never());
  return list instanceof z.ZodArray ? schemaLeaves(list.element as z.ZodType, `${field}.`) : [];
}
