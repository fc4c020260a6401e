import type { ResourceName } from '../../contract/index.js';
import { textOf } from '../../shared/decimals.js';
import { bareObject, isPlainObject } from '../../shared/objects.js';
import { formatDate } from './dates.js';
import { parsePath, setAt, type Segment } from './paths.js';
import { isNumericSource, linesFieldOf } from './sources.js';
import type {
  LinesLayout,
  OutboundFieldSpec,
  OutboundMappingSpec,
  Scalar,
  ValueTables,
} from './spec.js';
import {
  fixedWidth,
  isMissing,
  tableKey,
  withDecimalComma,
  withDecimals,
  type Width,
} from './values.js';

/** One target field of a compiled outbound mapping. */
export interface OutField {
  /** As the config names it: a CSV column, or a dot path of the object written. */
  target: string;
  /** The source path; undefined for a constant. */
  source: Segment[] | undefined;
  /** Read from each order line (the source goes through the lines without a number). */
  perLine: boolean;
  /** A number (or decimal text) by its source's type: CSV writes it with the decimal comma. */
  numeric: boolean;
  spec: OutboundFieldSpec;
  table: Readonly<Record<string, Scalar>> | undefined;
  width: Width | undefined;
}

/** An outbound mapping ready to apply: what `erp.file.mapping.<resource>` says, checked. */
export interface OutboundMapping {
  resource: ResourceName;
  lines: LinesLayout;
  /** The record's list of order lines, if it has one. */
  linesField: string | undefined;
  /** `lines: nested`: the key of the list of mapped lines. */
  linesAs: string;
  /** XML: the root element's name. */
  root: string;
  fields: readonly OutField[];
  /**
   * Rows: one per order line even when no field reads a line (the built-in CSV layout, whose
   * line columns the `columns` option may leave out); otherwise only when a field does.
   */
  rowPerLine: boolean;
  /** Of date-times written with a `date` pattern. */
  timeZone: string;
}

/** The value at `path` below `value`: objects by key, lists by number. */
export function valueAtPath(value: unknown, path: readonly Segment[]): unknown {
  let current = value;
  for (const key of path) {
    if (typeof key === 'number') current = Array.isArray(current) ? current[key] : undefined;
    else current = isPlainObject(current) && Object.hasOwn(current, key) ? current[key] : undefined;
  }
  return current;
}

function sourceValue(field: OutField, record: unknown, line: unknown): unknown {
  if (field.spec.value !== undefined) return field.spec.value;
  if (field.source === undefined) return undefined;
  return field.perLine
    ? valueAtPath(line, field.source.slice(1))
    : valueAtPath(record, field.source);
}

/**
 * One field's value for a record (and one of its lines): the source or the constant, the
 * `default` when there is none, else through the value table (a value it lacks is kept), then
 * the date pattern and the decimals; what the file format does (CSV's quoting) comes after.
 */
export function fieldValue(
  mapping: OutboundMapping,
  field: OutField,
  record: unknown,
  line: unknown,
): unknown {
  const { spec } = field;
  let value = sourceValue(field, record, line);
  if (isMissing(value)) value = spec.default ?? value;
  else if (field.table !== undefined) {
    const key = tableKey(value);
    if (Object.hasOwn(field.table, key)) value = field.table[key];
  }
  if (spec.date !== undefined) value = formatDate(value, spec.date, mapping.timeZone);
  if (spec.decimals !== undefined) value = withDecimals(value, spec.decimals);
  return value;
}

/** What JSON and XML write for a value: with the field's decimal comma and fixed width. */
export function finishedValue(field: OutField, value: unknown): unknown {
  const result = field.spec.decimalComma === true ? withDecimalComma(value) : value;
  if (field.width === undefined || isMissing(result) || isPlainObject(result)) return result;
  return fixedWidth(textOf(result), field.width, field.target);
}

const linesOf = (mapping: OutboundMapping, record: Record<string, unknown>): unknown[] => {
  const lines = mapping.linesField === undefined ? undefined : record[mapping.linesField];
  return Array.isArray(lines) ? lines.filter(isPlainObject) : [];
};

/** `row` of each of the record's rows: one per order line, or one for the record. */
function eachRow<T>(
  mapping: OutboundMapping,
  record: Record<string, unknown>,
  row: (line: unknown) => T,
): T[] {
  const lines = mapping.rowPerLine ? linesOf(mapping, record) : [];
  return lines.length === 0 ? [row(undefined)] : lines.map(row);
}

/** The record's rows: per field its value. */
export const outboundRows = (
  mapping: OutboundMapping,
  record: Record<string, unknown>,
): unknown[][] =>
  eachRow(mapping, record, (line) =>
    mapping.fields.map((f) => fieldValue(mapping, f, record, line)),
  );

function objectOf(
  mapping: OutboundMapping,
  fields: readonly OutField[],
  record: unknown,
  line: unknown,
): Record<string, unknown> {
  const result = bareObject();
  for (const field of fields) {
    const value = finishedValue(field, fieldValue(mapping, field, record, line));
    setAt(result, field.target.split('.'), value ?? null);
  }
  return result;
}

/** Each row as an object: targets as (dot path) keys, as JSON rows and ndjson lines write it. */
export const rowObjects = (mapping: OutboundMapping, record: Record<string, unknown>): unknown[] =>
  eachRow(mapping, record, (line) => objectOf(mapping, mapping.fields, record, line));

/** The record as one object; the fields read from lines go into a list under `linesAs`. */
export function nestedObject(
  mapping: OutboundMapping,
  record: Record<string, unknown>,
): Record<string, unknown> {
  const header = mapping.fields.filter((field) => !field.perLine);
  const perLine = mapping.fields.filter((field) => field.perLine);
  const result = objectOf(mapping, header, record, undefined);
  if (perLine.length > 0) {
    result[mapping.linesAs] = linesOf(mapping, record).map((line) =>
      objectOf(mapping, perLine, record, line),
    );
  }
  return result;
}

/** A source path as the field reads it: `<linesField>.x` per line. */
export function outField(
  resource: ResourceName,
  target: string,
  spec: OutboundFieldSpec,
  tables: ValueTables,
): OutField {
  const source = spec.from === undefined ? undefined : parsePath(spec.from);
  const linesField = linesFieldOf(resource);
  const [first, second] = source ?? [];
  const perLine = first !== undefined && first === linesField && typeof second === 'string';
  const numeric =
    spec.decimals !== undefined ||
    typeof spec.value === 'number' ||
    (spec.from !== undefined && isNumericSource(resource, spec.from));
  const width =
    spec.width === undefined
      ? undefined
      : { width: spec.width, align: spec.align ?? 'left', pad: spec.pad ?? ' ' };
  const table = spec.table === undefined ? undefined : tables[spec.table];
  return { target, source, perLine, numeric, spec, table, width };
}

export interface OutboundContext {
  tables: ValueTables;
  timeZone: string;
}

/** Builds the mapping of `spec` without checking it (the config check has: checks.ts). */
export function outboundMapping(
  resource: ResourceName,
  spec: OutboundMappingSpec,
  context: OutboundContext,
  defaultLines: LinesLayout,
): OutboundMapping {
  const linesField = linesFieldOf(resource);
  const fields = Object.entries(spec.fields).map(([target, field]) =>
    outField(resource, target, field, context.tables),
  );
  return {
    resource,
    lines: spec.lines ?? defaultLines,
    linesField,
    linesAs: spec.linesAs ?? linesField ?? 'lines',
    root: spec.root ?? resource,
    fields,
    rowPerLine: fields.some((field) => field.perLine),
    timeZone: context.timeZone,
  };
}

/**
 * Today's CSV layout as a mapping: each column (the chosen `columns`, else every field of the
 * schema and the enrichment) read from the path it is named by, one row per order line.
 */
export function columnsMapping(
  resource: ResourceName,
  columns: readonly string[],
  timeZone: string,
): OutboundMapping {
  const fields = columns.map((column) => outField(resource, column, { from: column }, {}));
  return {
    ...outboundMapping(resource, { fields: {} }, { tables: {}, timeZone }, 'rows'),
    fields,
    rowPerLine: true,
  };
}
