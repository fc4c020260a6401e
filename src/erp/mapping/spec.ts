/**
 * The mapping language of the config (`erp.file.mapping.<resource>`,
 * `erp.file.inboxMapping.<kind>`, `erp.file.valueTables.<name>`; docs/readme/connect-your-erp.md):
 * its schema, and its types as the schema gives them. Targets are keys, sources are dot paths;
 * there are no expressions: what a field may do is the keys below. What the entries say across
 * sections (sources a resource cannot have, tables that are not there) is checked in checks.ts
 * and, for the inbox kinds, where the kinds are known (messages/layouts.ts).
 */
import { z } from 'zod';
import type { ResourceName } from '../../contract/index.js';
import { nonEmpty, optionalFlag } from '../../shared/configValues.js';

/** The outbox's file formats (`erp.file.format`), each of which a mapping may lay out. */
export const OUTBOX_FORMATS = ['json', 'ndjson', 'csv', 'xml'] as const;
export type OutboxFormat = (typeof OUTBOX_FORMATS)[number];

/** The orders `openTrans: true` writes as openTRANS ORDER documents: no mapping lays them out. */
export const OPENTRANS_ORDERS = ['singleOrder', 'directOrder'] as const satisfies ResourceName[];
export const isOpenTransOrder = (resource: ResourceName): boolean =>
  (OPENTRANS_ORDERS as readonly ResourceName[]).includes(resource);

/** A constant or a default: what YAML gives as a scalar. */
export type Scalar = string | number | boolean;
const scalar = z.union([z.string(), z.number(), z.boolean()], {
  error: 'a text, a number or true/false',
});

/**
 * Value tables by name: platform value → ERP value. Outbound reads them forwards, inbound
 * backwards (then no two platform values may share an ERP value). Keys are text: YAML's `0:`
 * is the key "0", and a value is looked up by its text.
 */
export type ValueTables = Readonly<Record<string, Readonly<Record<string, Scalar>>>>;

/**
 * Which instant a local time means where the clock changes: the earlier or the later of the
 * two a repeated hour has, and for an hour the clock skips, the time read with the offset
 * before (earlier) or after (later) the change. Without it such a time is refused.
 */
export const CLOCK_CHANGES = ['earlier', 'later'] as const;
export type ClockChange = (typeof CLOCK_CHANGES)[number];

/** What an inbound CSV file may be encoded in (`encoding`); UTF-16 only when named. */
export const INBOUND_ENCODINGS = ['utf-8', 'windows-1252', 'utf-16le', 'utf-16be'] as const;
export type InboundEncoding = (typeof INBOUND_ENCODINGS)[number];

/** What every field may say, in both directions. */
const common = {
  /** Written as it is instead of a source value. */
  value: scalar.optional(),
  /** The value table (`valueTables.<name>`) the value goes through. */
  table: nonEmpty.optional(),
  /** Written (in the target's terms, not through the table) when the source has no value. */
  default: scalar.optional(),
  /** A date pattern of `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss` and literal characters. */
  date: nonEmpty.optional(),
};

/** `Target: sourcePath` is short for `Target: { from: sourcePath }` (inbound also a column number). */
const shorthand = (value: unknown): unknown =>
  typeof value === 'string' ? { from: value } : value;
const inboundShorthand = (value: unknown): unknown =>
  typeof value === 'number' ? { from: value } : shorthand(value);

const outboundField = z.strictObject({
  /** A dot path of the record; through the order lines (`orderedArticleLines.quantity`) per line. */
  from: nonEmpty.optional(),
  ...common,
  /** A number written with this many decimals (`2.50`). */
  decimals: z.number().int().min(0).max(10).optional(),
  /** `12,5` instead of `12.5` for this field (a CSV file's own `decimalComma` otherwise). */
  decimalComma: optionalFlag,
  /** Fixed width: the text padded (`pad`, default a space); a longer one refuses the record. */
  width: z.number().int().min(1).max(10_000).optional(),
  align: z.enum(['left', 'right']).optional(),
  pad: z.string().length(1, 'one character, e.g. "0"').optional(),
});
export type OutboundFieldSpec = z.output<typeof outboundField>;

const inboundField = z.strictObject({
  /** A CSV column by header name, a column number (from 1, files without a header), or an XML path. */
  from: z
    .union([nonEmpty, z.number().int().min(1)], {
      error: 'a column name, a column number (from 1) or an element path',
    })
    .optional(),
  ...common,
  /**
   * A number pattern in the ERP's characters (`#.##0,00`): its thousands separator is then
   * read alone too (`1.000`), and it takes at most its decimals (numbers.ts).
   */
  number: nonEmpty.optional(),
  /** With a `date` pattern that has a time: which instant a local time at a clock change is. */
  clockChange: z.enum(CLOCK_CHANGES).optional(),
});
export type InboundFieldSpec = z.output<typeof inboundField>;

const targets = <T extends z.ZodType>(field: T) =>
  z.record(z.string().min(1, 'a target name must not be empty'), field);

const fieldsOf = <T extends z.ZodType>(field: T) =>
  targets(field).refine((fields) => Object.keys(fields).length > 0, 'map at least one field');

/** The order lines of an outbound record: one row each (header fields repeated) or a list. */
export type LinesLayout = 'rows' | 'nested';

/** `erp.file.mapping.<resource>`. */
export const outboundMappingSchema = z.strictObject({
  lines: z.enum(['rows', 'nested']).optional(),
  /** With `lines: nested`: the key of the list of lines (default: the record's own field name). */
  linesAs: nonEmpty.optional(),
  /** XML: the root element (default: the resource's name). */
  root: nonEmpty.optional(),
  fields: fieldsOf(z.preprocess(shorthand, outboundField)),
});
export type OutboundMappingSpec = z.output<typeof outboundMappingSchema>;

/** `erp.file.inboxMapping.<kind>`. */
export const inboundMappingSchema = z
  .strictObject({
    format: z.enum(['csv', 'xml']),
    /** CSV: the first row names the columns (default); false: `from` is a column number. */
    header: optionalFlag,
    /**
     * CSV: `listed` (default) reads the columns `fields` names; `named` also reads each other
     * column as the message field its header names (`status`, `trackingInfo.trackingCode`), and
     * refuses a file with a column that names none. The kinds' default layouts are `named`.
     */
    columns: z.enum(['listed', 'named']).optional(),
    /** CSV settings of these files; each defaults to `erp.file.csv`'s. */
    delimiter: z.string().length(1, 'one character, e.g. ";"').optional(),
    quote: z.string().length(1, "one character, e.g. '\"'").optional(),
    encoding: z.enum(INBOUND_ENCODINGS).optional(),
    decimalComma: optionalFlag,
    /** XML: the elements that are one message each, as a path below the root (`Auftrag`). */
    records: nonEmpty.optional(),
    /** XML: the line elements below a record (`Positionen/Position`). */
    lines: nonEmpty.optional(),
    // With `columns: named` the header names the fields: none need be listed.
    fields: targets(z.preprocess(inboundShorthand, inboundField)).prefault({}),
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
export type InboundMappingSpec = z.output<typeof inboundMappingSchema>;

/** `erp.file.inboxMapping`: by kind; the kinds' names are checked where the kinds are known. */
export const inboxMappingsSchema = z.record(nonEmpty, inboundMappingSchema).prefault({});

export const valueTablesSchema = z.record(nonEmpty, z.record(z.string(), scalar)).prefault({});
