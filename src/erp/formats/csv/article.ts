import type * as CsvParse from 'csv-parse/sync';
import { z } from 'zod';
import { entitySchema } from '../../../contract/index.js';
import { errorMessage } from '../../../shared/errors.js';
import { bareObject } from '../../../shared/objects.js';
import { lazyPackage } from '../../../shared/lazyPackage.js';
import { numberGrammar, type NumberGrammar } from '../../mapping/numbers.js';
import { cellValue, fieldSchema } from '../../mapping/cells.js';
import { duplicateColumns } from './header.js';
import type { InboxKind } from '../../messages/kinds.js';
import type { InboxOptions } from '../../inbound/options.js';
import type { Problem } from '../../messages/problems.js';
import { ERP_STAMP } from '../../messages/stamp.js';
import { inboxProblems } from '../../messages/check.js';

/** Loaded for the first article CSV the ERP drops, not at every start. */
const csvParse = lazyPackage<typeof CsvParse>('csv-parse/sync');

/**
 * Article CSV: a header row, then one row per article. Columns are article fields by name (dot
 * paths for nested ones); packaging units are `packagingUnit1.quantity`, `packagingUnit1.unit`,
 * `packagingUnit1.pcn`, `packagingUnit2.quantity`, ... Empty cells are left out. Rows are
 * numbered as a spreadsheet shows them: the header is row 1.
 */
const PACKAGING_UNIT = /^packagingUnit(\d+)\.(.+)$/;

interface Column {
  path: (string | number)[];
  schema: z.ZodType | undefined;
}

export interface ArticleRow {
  row: number;
  body: Record<string, unknown>;
  problems: Problem[];
}

export type ArticleCsv = { ok: true; rows: ArticleRow[] } | { ok: false; problems: Problem[] };

function columnOf(header: string, article: z.ZodType): Column | Problem {
  const unit = PACKAGING_UNIT.exec(header);
  if (unit?.[1] !== undefined && unit[2] !== undefined && Number(unit[1]) >= 1) {
    const schema = fieldSchema(article, ['packagingUnits', unit[2]]);
    if (schema !== undefined)
      return { path: ['packagingUnits', Number(unit[1]) - 1, unit[2]], schema };
  }
  // Every kind may carry the ERP's stamp (stamp.ts); it is no article field.
  if (header === ERP_STAMP) return { path: [ERP_STAMP], schema: z.string() };
  const parts = header.split('.');
  const schema = fieldSchema(article, parts);
  if (schema === undefined || header === '') {
    return { row: 1, message: `column "${header}" is not an article field; check the header` };
  }
  return { path: parts, schema };
}

function setAt(
  target: Record<string, unknown>,
  path: readonly (string | number)[],
  value: unknown,
) {
  let current: Record<string, unknown> | unknown[] = target;
  path.forEach((key, index) => {
    const last = index === path.length - 1;
    const container = current as Record<string | number, unknown>;
    if (last) container[key] = value;
    else {
      if (!Object.hasOwn(container, key)) {
        container[key] = typeof path[index + 1] === 'number' ? [] : bareObject();
      }
      current = container[key] as Record<string, unknown> | unknown[];
    }
  });
}

/** `packagingUnits.0.quantity` as the column the ERP wrote: `packagingUnit1.quantity`. */
const columnName = (path: string | undefined) =>
  path?.replace(/^packagingUnits\.(\d+)\./, (_, i: string) => `packagingUnit${Number(i) + 1}.`);

function rowOf(
  cells: readonly string[],
  columns: readonly Column[],
  row: number,
  number: NumberGrammar,
  kind: InboxKind,
): ArticleRow {
  const body = bareObject();
  const problems: Problem[] = [];
  columns.forEach((column, index) => {
    const text = cells[index] ?? '';
    if (text.trim() === '') return;
    const cell = cellValue(column.schema, text, number);
    if ('problem' in cell)
      problems.push({ row, path: column.path.join('.'), message: cell.problem });
    else setAt(body, column.path, cell.value);
  });
  // Units skipped because all their cells were empty leave holes; the ERP means "no such unit".
  if (Array.isArray(body.packagingUnits)) body.packagingUnits = body.packagingUnits.filter(Boolean);
  if (problems.length === 0) {
    for (const problem of inboxProblems(kind, body)) problems.push({ ...problem, row });
  }
  return { row, body, problems: problems.map((p) => ({ ...p, path: columnName(p.path) ?? '' })) };
}

/** `kind` is the article inbox kind: each row is checked as a message of it. */
export function parseArticleCsv(
  text: string,
  options: InboxOptions['csv'],
  kind: InboxKind,
): ArticleCsv {
  let records: string[][];
  try {
    records = csvParse().parse(text, {
      delimiter: options.delimiter,
      quote: options.quote,
      bom: true,
      skip_empty_lines: true,
    });
  } catch (error) {
    return { ok: false, problems: [{ message: `not readable as CSV: ${errorMessage(error)}` }] };
  }
  const [header, ...data] = records;
  if (header === undefined) return { ok: false, problems: [{ message: 'the file is empty' }] };
  const article = entitySchema('article');
  const columns: Column[] = [];
  const problems: Problem[] = duplicateColumns(header, (name) => name !== '').map(
    ({ message }) => ({ row: 1, message }),
  );
  for (const name of header) {
    const column = columnOf(name.trim(), article);
    if ('message' in column) problems.push(column);
    else columns.push(column);
  }
  if (problems.length > 0) return { ok: false, problems };
  if (data.length === 0)
    return { ok: false, problems: [{ message: 'no article rows below the header' }] };
  const number = numberGrammar(options.decimalComma);
  return { ok: true, rows: data.map((cells, i) => rowOf(cells, columns, i + 2, number, kind)) };
}
