import { bareObject } from '../../shared/objects.js';
import { hasLeaf, type Shape } from './shape.js';
import { commonFieldProblems, reachesPrototype, type MappingProblem } from './checks.js';
import { numberGrammar, numberPatternProblem, type NumberGrammar } from './numbers.js';
import { fieldNames, isScalarShape, parsePath, resolvePath, type Segment } from './paths.js';
import type { InboundFieldSpec, InboundMappingSpec, ValueTables } from './spec.js';
import { reversed, type ReverseTable } from './values.js';

/** One target field of a compiled inbound mapping. */
export interface InField {
  /** As the config names it: a dot path of the message (`trackingInfo.0.trackingCode`). */
  target: string;
  path: Segment[];
  /** A field of each line (the target goes through the message's list of lines). */
  perLine: boolean;
  /** What the message's schema has there: how a cell's text is typed. */
  shape: Shape;
  spec: InboundFieldSpec;
  /** The value table read backwards: ERP value → platform value. */
  table: ReverseTable | undefined;
  /** How the field's numbers are written: the decimal separator, its `number` pattern. */
  number: NumberGrammar;
}

/** An inbound mapping ready to apply: what `erp.file.inboxMapping.<kind>` says, checked. */
export interface InboundMapping {
  kind: string;
  spec: InboundMappingSpec;
  fields: readonly InField[];
  /** The message's list a line of the file becomes an entry of (`erpOrderedArticleLines`). */
  linesField: string | undefined;
  decimalComma: boolean;
  /** Time zone of date-times read with a `date` pattern. */
  timeZone: string;
  /** The kind's message and the tables, which the columns a `named` file's header adds are checked against. */
  message: Shape;
  tables: ValueTables;
}

export interface InboundContext {
  tables: ValueTables;
  timeZone: string;
  /** The file's decimal comma when the mapping does not say (`erp.file.csv.decimalComma`). */
  decimalComma: boolean;
}

export type Compiled<T> = { ok: true; mapping: T } | { ok: false; problems: MappingProblem[] };

/** The list a target goes through without a number: a line of the file. */
function linesFieldOf(shape: Shape, path: readonly Segment[]): string | undefined {
  const [first, second] = path;
  if (shape.kind !== 'object' || typeof first !== 'string' || typeof second !== 'string') {
    return undefined;
  }
  return shape.fields.get(first)?.kind === 'array' ? first : undefined;
}

/** Whether a field of this shape holds a number (or decimal text): what `number` reads. */
const takesNumber = (shape: Shape): boolean =>
  hasLeaf(shape, (leaf) => leaf.type === 'number' || leaf.decimal === true, true);

/** What `number` and `clockChange` say, checked against the field. */
function readingProblems(
  target: string,
  spec: InboundFieldSpec,
  shape: Shape,
  decimalComma: boolean,
): MappingProblem[] {
  const problems: MappingProblem[] = [];
  if (spec.number !== undefined) {
    const problem = takesNumber(shape)
      ? numberPatternProblem(spec.number, decimalComma)
      : `${target} holds text, not a number; remove number`;
    if (problem !== undefined)
      problems.push({ path: ['fields', target, 'number'], message: problem });
  }
  if (spec.clockChange !== undefined && spec.date?.includes('HH') !== true) {
    const message =
      'clockChange says which instant a local time at a change of the clock is; it needs a date pattern with a time (HH)';
    problems.push({ path: ['fields', target, 'clockChange'], message });
  }
  return problems;
}

/** The table read backwards, or why it cannot be. */
function reverseTable(
  target: string,
  spec: InboundFieldSpec,
  tables: ValueTables,
): { table?: ReverseTable; problems: MappingProblem[] } {
  const given = spec.table === undefined ? undefined : tables[spec.table];
  if (given === undefined) return { problems: [] };
  const back = reversed(given);
  if (back.ok) return { table: back.table, problems: [] };
  const message = `table ${spec.table ?? ''} gives ${back.shared.join(', ')} for more than one platform value, so a file's value cannot be read back; give the inbox a table of its own`;
  return { problems: [{ path: ['fields', target, 'table'], message }] };
}

function fieldOf(
  kind: Shape,
  target: string,
  spec: InboundFieldSpec,
  context: InboundContext,
): { field?: InField; problems: MappingProblem[] } {
  const problems = commonFieldProblems(target, spec, context.tables);
  if (reachesPrototype(target)) return { problems };
  const path = parsePath(target);
  const resolved = resolvePath(kind, path, linesFieldOf(kind, path));
  if (!resolved.ok) {
    return { problems: [...problems, { path: ['fields', target], message: resolved.message }] };
  }
  const { shape, perLine } = resolved;
  if (!isScalarShape(shape)) {
    const names = fieldNames(shape);
    const which = names.length > 0 ? `: map one of its fields (${names.join(', ')})` : '';
    problems.push({
      path: ['fields', target],
      message: `${target} holds more than one value${which}`,
    });
  }
  const { table, problems: tableProblems } = reverseTable(target, spec, context.tables);
  problems.push(...tableProblems, ...readingProblems(target, spec, shape, context.decimalComma));
  const number = numberGrammar(context.decimalComma, spec.number);
  return { field: { target, path, perLine, shape, spec, table, number }, problems };
}

const ONLY_CSV = ['header', 'columns', 'delimiter', 'quote', 'encoding'] as const;
const ONLY_XML = ['records', 'lines'] as const;

function layoutProblems(spec: InboundMappingSpec, fields: readonly InField[]): MappingProblem[] {
  const problems: MappingProblem[] = [];
  const add = (path: Segment[], message: string) => problems.push({ path, message });
  const [other, only] = spec.format === 'csv' ? [ONLY_XML, 'xml'] : [ONLY_CSV, 'csv'];
  for (const key of other) if (spec[key] !== undefined) add([key], `only for format ${only}`);
  const byNumber = spec.format === 'csv' && spec.header === false;
  if (byNumber && spec.columns === 'named') {
    add(
      ['columns'],
      'named columns are named by the header: remove header: false, or columns: named',
    );
  }
  for (const { spec: field, target } of fields) {
    const at = ['fields', target, 'from'];
    if (field.from === undefined) continue;
    if (byNumber && typeof field.from !== 'number') {
      add(at, 'without a header, name the column by its number (1 is the first)');
    } else if (!byNumber && typeof field.from === 'number') {
      const what =
        spec.format === 'csv'
          ? 'the column by its header name (or set header: false)'
          : 'an element path such as Kopf/Belegnr';
      add(at, `give ${what}`);
    }
  }
  if (spec.format !== 'xml') return problems;
  if (spec.records === undefined) {
    add(
      ['records'],
      'required for xml: the path of the elements that are one message each, below the root (e.g. Auftrag)',
    );
  }
  const perLine = fields.some((field) => field.perLine);
  if (perLine && spec.lines === undefined) {
    add(
      ['lines'],
      'fields of lines are mapped: give the path of the line elements below a record (e.g. Positionen/Position)',
    );
  }
  if (!perLine && spec.lines !== undefined) {
    add(['lines'], 'no field of a line is mapped; remove lines, or map fields of the lines');
  }
  return problems;
}

/**
 * The mapping of `spec` for messages of the shape `kind`, or every problem: targets the kind
 * cannot have (with the nearest field), unknown tables and tables that cannot be read
 * backwards, date patterns, sources the format cannot name.
 */
export function inboundMapping(
  kindName: string,
  kind: Shape,
  spec: InboundMappingSpec,
  context: InboundContext,
): Compiled<InboundMapping> {
  const problems: MappingProblem[] = [];
  const fields: InField[] = [];
  const decimalComma = spec.decimalComma ?? context.decimalComma;
  for (const [target, fieldSpec] of Object.entries(spec.fields)) {
    const made = fieldOf(kind, target, fieldSpec, { ...context, decimalComma });
    problems.push(...made.problems);
    if (made.field !== undefined) fields.push(made.field);
  }
  const lists = new Set(fields.filter((f) => f.perLine).map((f) => String(f.path[0])));
  if (lists.size > 1) {
    problems.push({
      path: ['fields'],
      message: `fields of more than one list are mapped (${[...lists].join(', ')}); a file's lines fill one`,
    });
  }
  problems.push(...layoutProblems(spec, fields));
  if (problems.length > 0) return { ok: false, problems };
  const [linesField] = lists;
  return {
    ok: true,
    mapping: {
      kind: kindName,
      spec,
      fields,
      linesField,
      decimalComma,
      timeZone: context.timeZone,
      message: kind,
      tables: context.tables,
    },
  };
}

/** A problem of a header column: where it stands, and what is wrong with it. */
export interface ColumnProblem {
  column?: string;
  message: string;
}

/**
 * A `named` mapping with the file's own columns: each column of `header` that no field reads
 * becomes the field its name says (`trackingInfo.trackingCode`). A column that names no field
 * of the message, or a second list of lines, is a problem of the file.
 */
export function withNamedColumns(
  mapping: InboundMapping,
  header: readonly string[],
): { ok: true; mapping: InboundMapping } | { ok: false; problems: ColumnProblem[] } {
  const listed = new Set(mapping.fields.map((field) => field.spec.from));
  // Without a prototype: a column named __proto__ is a name like any other (and refused).
  const fields = Object.assign(
    bareObject() as Record<string, InboundFieldSpec>,
    mapping.spec.fields,
  );
  const added = new Set<string>();
  const problems: ColumnProblem[] = [];
  for (const column of header) {
    if (listed.has(column)) continue;
    // A column named twice is refused before (formats/csv/header.ts).
    if (column === '') problems.push({ message: 'a column has no name; name it in the header' });
    else if (Object.hasOwn(fields, column)) {
      problems.push({ column, message: `${column} is read from another column already` });
    } else {
      fields[column] = { from: column };
      added.add(column);
    }
  }
  if (problems.length > 0) return { ok: false, problems };
  const spec = { ...mapping.spec, fields };
  const context = {
    tables: mapping.tables,
    timeZone: mapping.timeZone,
    decimalComma: mapping.decimalComma,
  };
  const compiled = inboundMapping(mapping.kind, mapping.message, spec, context);
  if (compiled.ok) return compiled;
  return {
    ok: false,
    problems: compiled.problems.map(({ path, message }) => {
      const [at, column] = path;
      const named = at === 'fields' && typeof column === 'string' && added.has(column);
      return named ? { column, message } : { message };
    }),
  };
}
