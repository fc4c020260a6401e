import { bareObject } from '../../shared/objects.js';
import { parseDate } from './dates.js';
import type { InboundMapping, InField } from './inbound.js';
import { setAt } from './paths.js';
import type { Scalar } from './spec.js';
import { isMissing } from './values.js';
import { typedCell, type Typed } from './typed.js';

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
  problem?: string | undefined;
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

/** What the mapping found wrong with a value of a record, and where it stands. */
export interface RecordProblem extends Where {
  /** The message field it is for. */
  path: string;
  message: string;
}

export interface MappedMessage {
  where: Where;
  body: Record<string, unknown>;
  /** What the mapping found wrong; the message goes nowhere when there is any. */
  problems: RecordProblem[];
  /** Where the value of a message field (`erpOrderedArticleLines.1.quantity`) came from. */
  locate(path: string): Where;
}

/** A constant or default from the config: as written, text typed like a cell's. */
function constant(field: InField, value: Scalar): Typed {
  return typeof value === 'string' ? typedCell(field.shape, value, field.number) : { value };
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
  return typedCell(field.shape, value, field.number);
}

function fill(
  mapping: InboundMapping,
  fields: readonly InField[],
  source: InputLine,
  put: (field: InField, value: unknown) => void,
  problems: RecordProblem[],
): void {
  for (const field of fields) {
    const cell = source.cell(field);
    const value = fieldValue(mapping, field, cell);
    if (value === undefined) continue;
    if ('value' in value) put(field, value.value);
    else problems.push({ ...cell.where, path: field.target, message: value.problem });
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
 * The message one record of the file becomes: header fields from the record, the fields of each
 * line into the message's list of lines, in the file's order (a line with no value adds none;
 * a status row without a parcel sends no tracking). A target naming a list entry by number
 * (`trackingInfo.0.trackingCode`) fills that entry.
 */
export function mapRecord(mapping: InboundMapping, record: InputRecord): MappedMessage {
  const body = bareObject();
  const problems: RecordProblem[] = [];
  const header = mapping.fields.filter((field) => !field.perLine);
  const perLine = mapping.fields.filter((field) => field.perLine);
  fill(mapping, header, record, (field, value) => setAt(body, field.path, value), problems);
  // The file's lines that gave the message's lines: a line of only empty cells gives none.
  const sources: InputLine[] = [];
  if (perLine.length > 0 && mapping.linesField !== undefined) {
    const lines: Record<string, unknown>[] = [];
    for (const line of record.lines) {
      const entry = bareObject();
      const put = (field: InField, value: unknown) => setAt(entry, field.path.slice(1), value);
      fill(mapping, perLine, line, put, problems);
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
