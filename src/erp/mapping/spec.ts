/**
 * The mapping language of the config (`erp.file.mapping`, `erp.file.inboxMapping`,
 * `erp.file.valueTables`; docs/readme/connect-your-erp.md), as plain data. Targets are keys,
 * sources are dot paths; there are no expressions: what a field may do is the keys below.
 */

import type { ResourceName } from '../../contract/index.js';

/** The outbox's file formats (`erp.file.format`), each of which a mapping may lay out. */
export const OUTBOX_FORMATS = ['json', 'ndjson', 'csv', 'xml'] as const;
export type OutboxFormat = (typeof OUTBOX_FORMATS)[number];

/**
 * The orders `openTrans: true` writes as openTRANS ORDER documents (format `xml`), in that
 * standard's layout: no mapping lays them out.
 */
export const OPENTRANS_ORDERS = ['singleOrder', 'directOrder'] as const satisfies ResourceName[];
export type OpenTransOrderResource = (typeof OPENTRANS_ORDERS)[number];
export const isOpenTransOrder = (resource: ResourceName): resource is OpenTransOrderResource =>
  (OPENTRANS_ORDERS as readonly ResourceName[]).includes(resource);

/** A constant or a default: what YAML gives as a scalar. */
export type Scalar = string | number | boolean;

/**
 * Value tables by name: platform value → ERP value. Outbound reads them forwards, inbound
 * backwards (then no two platform values may share an ERP value). Keys are text: YAML's `0:`
 * is the key "0", and a value is looked up by its text.
 */
export type ValueTables = Readonly<Record<string, Readonly<Record<string, Scalar>>>>;

/** What every field may say, in both directions. */
interface FieldCommon {
  /** Written as it is instead of a source value. */
  value?: Scalar | undefined;
  /** The value table (`valueTables.<name>`) the value goes through. */
  table?: string | undefined;
  /** Written (in the target's terms, not through the table) when the source has no value. */
  default?: Scalar | undefined;
  /** A date pattern of `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss` and literal characters. */
  date?: string | undefined;
}

/** One target field of an outbound mapping. */
export interface OutboundFieldSpec extends FieldCommon {
  /** A dot path of the record; through the order lines (`orderedArticleLines.quantity`) per line. */
  from?: string | undefined;
  /** A number written with this many decimals (`2.50`). */
  decimals?: number | undefined;
  /** `12,5` instead of `12.5` for this field (a CSV file's own `decimalComma` otherwise). */
  decimalComma?: boolean | undefined;
  /** Fixed width: the text padded (`pad`, default a space); a longer one refuses the record. */
  width?: number | undefined;
  align?: 'left' | 'right' | undefined;
  pad?: string | undefined;
}

/**
 * Which instant a local time means where the clock changes: the earlier or the later of the
 * two a repeated hour has, and for an hour the clock skips, the time read with the offset
 * before (earlier) or after (later) the change. Without it such a time is refused.
 */
export const CLOCK_CHANGES = ['earlier', 'later'] as const;
export type ClockChange = (typeof CLOCK_CHANGES)[number];

/** One target field of an inbound mapping. */
export interface InboundFieldSpec extends FieldCommon {
  /** A CSV column by header name, a column number (from 1, files without a header), or an XML path. */
  from?: string | number | undefined;
  /**
   * A number pattern in the ERP's characters (`#.##0,00`): its thousands separator is then
   * read alone too (`1.000`), and it takes at most its decimals (numbers.ts).
   */
  number?: string | undefined;
  /** With a `date` pattern that has a time: which instant a local time at a clock change is. */
  clockChange?: ClockChange | undefined;
}

/** What an inbound CSV file may be encoded in (`encoding`); UTF-16 only when named. */
export const INBOUND_ENCODINGS = ['utf-8', 'windows-1252', 'utf-16le', 'utf-16be'] as const;
export type InboundEncoding = (typeof INBOUND_ENCODINGS)[number];

/** The order lines of an outbound record: one row each (header fields repeated) or a list. */
export type LinesLayout = 'rows' | 'nested';

/** `erp.file.mapping.<resource>`. */
export interface OutboundMappingSpec {
  lines?: LinesLayout | undefined;
  /** With `lines: nested`: the key of the list of lines (default: the record's own field name). */
  linesAs?: string | undefined;
  /** XML: the root element (default: the resource's name). */
  root?: string | undefined;
  fields: Readonly<Record<string, OutboundFieldSpec>>;
}

/** `erp.file.inboxMapping.<kind>`. */
export interface InboundMappingSpec {
  format: 'csv' | 'xml';
  /** CSV: the first row names the columns (default); false: `from` is a column number. */
  header?: boolean | undefined;
  /**
   * CSV: `listed` (default) reads the columns `fields` names; `named` also reads each other
   * column as the message field its header names (`status`, `trackingInfo.trackingCode`), and
   * refuses a file with a column that names none. The kinds' default layouts are `named`.
   */
  columns?: 'listed' | 'named' | undefined;
  /** CSV settings of these files; each defaults to `erp.file.csv`'s. */
  delimiter?: string | undefined;
  quote?: string | undefined;
  encoding?: InboundEncoding | undefined;
  decimalComma?: boolean | undefined;
  /** XML: the elements that are one message each, as a path below the root (`Auftrag`). */
  records?: string | undefined;
  /** XML: the line elements below a record (`Positionen/Position`). */
  lines?: string | undefined;
  fields: Readonly<Record<string, InboundFieldSpec>>;
}
