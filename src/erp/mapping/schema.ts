import { z } from 'zod';
import { CLOCK_CHANGES, INBOUND_ENCODINGS } from './spec.js';
import { nonEmpty, optionalFlag } from '../../shared/configValues.js';

/**
 * The mapping language (spec.ts; docs/readme/connect-your-erp.md): per outbound
 * resource `erp.file.mapping.<resource>`, per inbox kind `erp.file.inboxMapping.<kind>`, and the
 * value tables both read, `erp.file.valueTables.<name>`. What the entries say across sections
 * (sources the resource cannot have, tables that are not there) is checked in checks.ts and,
 * for the inbox kinds, where the kinds are known (erp/messages/layouts.ts).
 */

const scalar = z.union([z.string(), z.number(), z.boolean()], {
  error: 'a text, a number or true/false',
});

/** `Target: sourcePath` is short for `Target: { from: sourcePath }` (inbound also a column number). */
const shorthand = (value: unknown): unknown =>
  typeof value === 'string' ? { from: value } : value;
const inboundShorthand = (value: unknown): unknown =>
  typeof value === 'number' ? { from: value } : shorthand(value);

const common = {
  value: scalar.optional(),
  table: nonEmpty.optional(),
  default: scalar.optional(),
  date: nonEmpty.optional(),
};

const outboundField = z.preprocess(
  shorthand,
  z.strictObject({
    from: nonEmpty.optional(),
    ...common,
    decimals: z.number().int().min(0).max(10).optional(),
    decimalComma: optionalFlag,
    width: z.number().int().min(1).max(10_000).optional(),
    align: z.enum(['left', 'right']).optional(),
    pad: z.string().length(1, 'one character, e.g. "0"').optional(),
  }),
);

const inboundField = z.preprocess(
  inboundShorthand,
  z.strictObject({
    from: z
      .union([nonEmpty, z.number().int().min(1)], {
        error: 'a column name, a column number (from 1) or an element path',
      })
      .optional(),
    ...common,
    number: nonEmpty.optional(),
    clockChange: z.enum(CLOCK_CHANGES).optional(),
  }),
);

const targets = <T extends z.ZodType>(field: T) =>
  z.record(z.string().min(1, 'a target name must not be empty'), field);

const fieldsOf = <T extends z.ZodType>(field: T) =>
  targets(field).refine((fields) => Object.keys(fields).length > 0, 'map at least one field');

export const outboundMappingSchema = z.strictObject({
  lines: z.enum(['rows', 'nested']).optional(),
  linesAs: nonEmpty.optional(),
  root: nonEmpty.optional(),
  fields: fieldsOf(outboundField),
});

export const inboundMappingSchema = z
  .strictObject({
    format: z.enum(['csv', 'xml']),
    header: optionalFlag,
    columns: z.enum(['listed', 'named']).optional(),
    delimiter: z.string().length(1, 'one character, e.g. ";"').optional(),
    quote: z.string().length(1, "one character, e.g. '\"'").optional(),
    encoding: z.enum(INBOUND_ENCODINGS).optional(),
    decimalComma: optionalFlag,
    records: nonEmpty.optional(),
    lines: nonEmpty.optional(),
    // With `columns: named` the header names the fields: none need be listed.
    fields: targets(inboundField).prefault({}),
  })
  .superRefine((mapping, context) => {
    if (mapping.columns !== 'named' && Object.keys(mapping.fields).length === 0) {
      context.addIssue({
        code: 'custom',
        path: ['fields'],
        message: 'map at least one field (or read the columns by name: columns: named)',
      });
    }
  });

/** `erp.file.inboxMapping`: by kind; the kinds' names are checked where the kinds are known. */
export const inboxMappingsSchema = z.record(nonEmpty, inboundMappingSchema).prefault({});

export const valueTablesSchema = z.record(nonEmpty, z.record(z.string(), scalar)).prefault({});
