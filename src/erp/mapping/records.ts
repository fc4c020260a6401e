import { bareObject } from '../../shared/objects.js';
import { toBoolean } from './cells.js';
import type { Problem } from '../messages/problems.js';
import type { Shape } from './shape.js';
import { parseDate } from './dates.js';
import type { InboundMapping, InField } from './inbound.js';
import { readNumber, readNumberText, type NumberGrammar } from './numbers.js';
import type { Segment } from './paths.js';
import type { Scalar } from './spec.js';
import { isMissing } from './values.js';

/** Where a value stands in the ERP's file, for the problems that name it. */
export interface Where {
  line?: number;
  /** CSV: the column's header name or number. */
  column?: string;
  /** XML: the element's path. */
  element?: string;
}

/**
 * A cell of the file: its text (undefined where the file has none) and where it is; or why the
 * file cannot say which text the field means (an XML element that stands twice).
 */
export interface Cell {
  text: string | undefined;
  where: Where;
  problem?: string;
}

/** One line of an order in the file: a CSV row, an XML line element. */
export interface InputLine {
  where: Where;
  cell(field: InField): Cell;
}

/** What becomes one message: a CSV row (or the rows of one order), an XML record element. */
export interface InputRecord extends InputLine {
  lines: readonly InputLine[];
}

export interface MappedMessage {
  where: Where;
  body: Record<string, unknown>;
  /** What the mapping found wrong; the message goes nowhere when there is any. */
  problems: Problem[];
  /** Where the value of a message field (`erpOrderedArticleLines.1.quantity`) came from. */
  locate(path: string): Where;
}

type Typed = { value: unknown } | { problem: string };

const hasOption = (shape: Shape, type: string): boolean =>
  shape.kind === 'union'
    ? shape.options.some((option) => hasOption(option, type))
    : shape.kind === 'leaf' && shape.type === type;

const isDecimalText = (shape: Shape): boolean =>
  shape.kind === 'union'
    ? shape.options.some(isDecimalText)
    : shape.kind === 'leaf' && shape.decimal === true;

/**
 * The text typed as the message's schema has the field: a number read by the field's grammar
 * (decimal text with a point where the platform holds it as text, `1.000,50` → `1000.50`),
 * true/false, a list, text.
 */
function typed(shape: Shape, text: string, number: NumberGrammar): Typed {
  if (shape.kind === 'array') {
    const values: unknown[] = [];
    for (const part of text.split('|')) {
      const one = typed(shape.item, part.trim(), number);
      if ('problem' in one) return one;
      values.push(one.value);
    }
    return { value: values };
  }
  if (isDecimalText(shape)) {
    const read = readNumberText(text, number);
    return 'problem' in read ? read : { value: read.text };
  }
  if (hasOption(shape, 'string')) return { value: text };
  if (hasOption(shape, 'number')) return readNumber(text, number);
  if (hasOption(shape, 'boolean')) return toBoolean(text);
  return { value: text };
}

/** A constant or default from the config: as written, text typed like a cell's. */
function constant(field: InField, value: Scalar): Typed {
  return typeof value === 'string' ? typed(field.shape, value, field.number) : { value };
}

/** One field's value: the cell, else its default; back through the table; the date; typed. */
function fieldValue(mapping: InboundMapping, field: InField, cell: Cell): Typed | undefined {
  const { spec } = field;
  if (spec.value !== undefined) return constant(field, spec.value);
  if (cell.problem !== undefined) return { problem: cell.problem };
  const text = cell.text?.trim();
  if (text === undefined || isMissing(text)) {
    return spec.default === undefined ? undefined : constant(field, spec.default);
  }
  let value = text;
  if (field.table !== undefined) {
    const back = field.table.get(value);
    if (back === undefined) {
      const known = [...field.table.keys()].join(', ');
      return { problem: `"${value}" is not in table ${spec.table ?? ''} (its values: ${known})` };
    }
    value = back;
  }
  if (spec.date !== undefined) {
    const date = parseDate(value, spec.date, mapping.timeZone, spec.clockChange);
    if ('problem' in date) return date;
    value = date.value;
  }
  return typed(field.shape, value, field.number);
}

/** Sets `value` at `path` below `target`, making the objects on the way without prototypes. */
function setAt(target: Record<string, unknown>, path: readonly Segment[], value: unknown): void {
  let current: Record<string | number, unknown> = target;
  path.forEach((key, index) => {
    if (index === path.length - 1) {
      current[key] = value;
      return;
    }
    if (!Object.hasOwn(current, key)) {
      current[key] = typeof path[index + 1] === 'number' ? [] : bareObject();
    }
    current = current[key] as Record<string | number, unknown>;
  });
}

function fill(
  mapping: InboundMapping,
  fields: readonly InField[],
  source: InputLine,
  put: (field: InField, value: unknown) => void,
  problems: Problem[],
): void {
  for (const field of fields) {
    const cell = source.cell(field);
    const value = fieldValue(mapping, field, cell);
    if (value === undefined) continue;
    if ('problem' in value)
      problems.push({ ...cell.where, path: field.target, message: value.problem });
    else put(field, value.value);
  }
}

/** The field a message path is about: `lines.3.quantity` → the per-line field `lines.quantity`. */
function fieldAt(mapping: InboundMapping, path: readonly string[]): InField | undefined {
  const text = path.join('.');
  const perLine = path[0] === mapping.linesField && /^\d+$/.test(path[1] ?? '');
  const wanted = perLine ? [path[0], ...path.slice(2)].join('.') : text;
  return mapping.fields.find(
    (field) =>
      field.target === wanted ||
      text.startsWith(`${field.target}.`) ||
      field.target.startsWith(`${wanted}.`),
  );
}

/**
 * The message one record of the file becomes: header fields from the record, the fields of
 * each line into the message's list of lines (in the file's order; a line with no value adds
 * none, and a record without any has no list: a status row without a parcel sends no tracking). Lists a target names by
 * number (`trackingInfo.0.trackingCode`) are filled at that entry.
 */
export function mapRecord(mapping: InboundMapping, record: InputRecord): MappedMessage {
  const body = bareObject();
  const problems: Problem[] = [];
  const header = mapping.fields.filter((field) => !field.perLine);
  const perLine = mapping.fields.filter((field) => field.perLine);
  fill(mapping, header, record, (field, value) => setAt(body, field.path, value), problems);
  // The file's lines that gave the message's lines: a line of only empty cells gives none.
  const sources: InputLine[] = [];
  if (perLine.length > 0 && mapping.linesField !== undefined) {
    const lines: Record<string, unknown>[] = [];
    for (const line of record.lines) {
      const entry = bareObject();
      fill(
        mapping,
        perLine,
        line,
        (field, value) => setAt(entry, field.path.slice(1), value),
        problems,
      );
      if (Object.keys(entry).length === 0) continue;
      lines.push(entry);
      sources.push(line);
    }
    if (lines.length > 0) body[mapping.linesField] = lines;
  }
  const locate = (path: string): Where => {
    const parts = path.split('.');
    const field = fieldAt(mapping, parts);
    const lineIndex = field?.perLine === true ? Number(parts[1]) : undefined;
    const source = lineIndex === undefined ? record : (sources[lineIndex] ?? record);
    return field === undefined ? record.where : source.cell(field).where;
  };
  return { where: record.where, body, problems, locate };
}
