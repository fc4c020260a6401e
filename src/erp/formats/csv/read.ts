import type * as CsvParse from 'csv-parse/sync';
import { errorMessage } from '../../../shared/errors.js';
import { lazyPackage } from '../../../shared/lazyPackage.js';
import {
  withNamedColumns,
  type InboundMapping,
  type InField,
  type InputLine,
  type InputRecord,
} from '../../mapping/index.js';
import { duplicateColumns } from './header.js';
import type { Problem } from '../../messages/problems.js';
import { nearestField } from '../../../shared/nearest.js';
import { articleMessages } from './article.js';
import type { FileMessages, InboxFile, ReadContext } from '../format.js';
import { mappedMessages, type Records } from '../rows.js';
import { mappedText } from '../text.js';

const csvParse = lazyPackage<typeof CsvParse>('csv-parse/sync');

interface Row {
  /** The file's line the row starts on (from 1). */
  line: number;
  cells: string[];
}

const newlines = (cells: readonly string[]) =>
  cells.reduce((sum, cell) => sum + (cell.match(/\n/g)?.length ?? 0), 0);

function rowsOf(text: string, delimiter: string, quote: string): Row[] | Problem {
  try {
    const parsed = csvParse().parse(text, {
      delimiter,
      quote,
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as { record: string[]; info: { lines: number } }[];
    return parsed.map(({ record, info }) => ({
      line: info.lines - newlines(record),
      cells: record,
    }));
  } catch (error) {
    const line = (error as { lines?: unknown }).lines;
    const message = `not readable as CSV: ${errorMessage(error)}`;
    return typeof line === 'number' ? { line, message } : { message };
  }
}

/** Where each mapped column is: its index in a row, by header name or by number. */
function columnIndexes(
  mapping: InboundMapping,
  header: readonly string[] | undefined,
): Map<InField, number> | Problem[] {
  const names = header?.map((name) => name.trim()) ?? [];
  const indexes = new Map<InField, number>();
  const problems: Problem[] = [];
  for (const field of mapping.fields) {
    const from = field.spec.from;
    if (from === undefined) continue;
    if (typeof from === 'number') {
      indexes.set(field, from - 1);
      continue;
    }
    const index = names.indexOf(from);
    if (index !== -1) {
      indexes.set(field, index);
      continue;
    }
    const near = nearestField(from, names);
    const guess = near === undefined ? '' : ` (did you mean "${near}"?)`;
    const message = `the header has no column "${from}"${guess}; its columns: ${names.join(', ')}`;
    problems.push({ line: 1, path: field.target, message });
  }
  return problems.length > 0 ? problems : indexes;
}

function lineOf(row: Row, indexes: ReadonlyMap<InField, number>, byName: boolean): InputLine {
  return {
    where: { line: row.line },
    cell(field) {
      const index = indexes.get(field);
      if (index === undefined) return { text: undefined, where: { line: row.line } };
      const column = byName ? String(field.spec.from) : String(index + 1);
      return { text: row.cells[index], where: { line: row.line, column } };
    },
  };
}

/**
 * The records of a mapped CSV file: one per row, which is also its one line when fields of order
 * lines are mapped (the rows of one order become one message: messages/merge.ts). A row whose number of
 * columns differs from the header's (or the first row's), or lacks one the mapping reads, is bad.
 */
export function csvRecords(
  given: InboundMapping,
  text: string,
  csv: { delimiter: string; quote: string },
): Records {
  const rows = rowsOf(text, csv.delimiter, csv.quote);
  if (!Array.isArray(rows)) return { ok: false, reason: 'not readable as CSV', problems: [rows] };
  const byName = given.spec.header !== false;
  const [first] = rows;
  if (first === undefined) return { ok: false, reason: 'the file holds no rows', problems: [] };
  if (byName) {
    const listed = new Set(given.fields.map((field) => field.spec.from));
    const named = given.spec.columns === 'named';
    const isRead = (name: string) => listed.has(name) || (named && name !== '');
    const twice = duplicateColumns(first.cells, isRead);
    if (twice.length > 0) {
      const problems = twice.map((problem) => ({ line: first.line, ...problem }));
      return { ok: false, reason: 'the header names a column more than once', problems };
    }
  }
  const mapping = fileMapping(given, first.cells);
  if ('problems' in mapping) return mapping;
  const indexes = columnIndexes(mapping, byName ? first.cells : undefined);
  if (Array.isArray(indexes)) {
    return { ok: false, reason: 'the header lacks columns the mapping names', problems: indexes };
  }
  const data = byName ? rows.slice(1) : rows;
  const width = first.cells.length;
  const needed = Math.max(0, ...indexes.values()) + 1;
  const badRows: Problem[] = [];
  const records: InputRecord[] = [];
  for (const row of data) {
    const { length } = row.cells;
    if (length === width && length >= needed) {
      const line = lineOf(row, indexes, byName);
      records.push({ ...line, lines: mapping.linesField === undefined ? [] : [line] });
      continue;
    }
    const against = byName ? `the header has ${width}` : `the first row has ${width}`;
    const wanted = !byName && length < needed ? `; the mapping reads column ${needed}` : '';
    badRows.push({ line: row.line, message: `the row has ${length} columns, ${against}${wanted}` });
  }
  return { ok: true, records, badRows, mapping };
}

/** `given`, or with `columns: named` the mapping with the header's own columns. */
function fileMapping(
  given: InboundMapping,
  header: readonly string[],
): InboundMapping | { ok: false; reason: string; problems: Problem[] } {
  if (given.spec.columns !== 'named') return given;
  const named = withNamedColumns(
    given,
    header.map((name) => name.trim()),
  );
  if (named.ok) return named.mapping;
  const problems = named.problems.map((problem) => ({ line: 1, ...problem }));
  const reason = `the header names columns that are no ${given.kind} fields; name each as its field (a dot path)`;
  return { ok: false, reason, problems };
}

/**
 * The messages of a CSV file: in the layout of its kind's mapping (the config's, or the kind's
 * default, whose header names the message's fields) with the mapping's encoding, delimiter and
 * quote (else `erp.file.csv`'s); or in the article CSV's own layout (article.ts).
 */
export function csvMessages(bytes: Uint8Array, file: InboxFile, ctx: ReadContext): FileMessages {
  const mapping = ctx.mappings?.get(file.folder);
  if (mapping?.spec.format !== 'csv') return articleMessages(bytes, file, ctx);
  const { spec } = mapping;
  const { csv } = ctx.options;
  const encoding = spec.encoding ?? (csv.encoding === 'windows-1252' ? 'windows-1252' : 'utf-8');
  const text = mappedText(bytes, encoding);
  const layout = { delimiter: spec.delimiter ?? csv.delimiter, quote: spec.quote ?? csv.quote };
  const records = text.ok ? csvRecords(mapping, text.text, layout) : text;
  return mappedMessages(records, file, mapping, ctx);
}
