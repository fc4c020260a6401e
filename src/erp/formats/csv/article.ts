import type * as CsvParse from 'csv-parse/sync';
import { entitySchema } from '../../../contract/index.js';
import { errorMessage } from '../../../shared/errors.js';
import { bareObject } from '../../../shared/objects.js';
import { lazyPackage } from '../../../shared/lazyPackage.js';
import { numberGrammar, type NumberGrammar } from '../../mapping/numbers.js';
import { setAt } from '../../mapping/paths.js';
import { fieldShape, shapeOf, type Shape } from '../../mapping/shape.js';
import { typedCell } from '../../mapping/typed.js';
import { duplicateColumns } from './header.js';
import type { InboxKind } from '../../messages/kinds.js';
import { withoutStamp } from '../../messages/stamp.js';
import { refusedFile, type FileMessages, type InboxFile, type ReadContext } from '../format.js';
import { keyedMessages, type RowRead } from '../rows.js';
import { decode } from '../text.js';
import type { Problem } from '../../messages/problems.js';
import { ERP_STAMP } from '../../messages/stamp.js';
import { inboxProblems } from '../../messages/check.js';

/**
 * The article CSV's own layout, older than the mapping language: a header row, then one row per
 * article. Columns are article fields by name (dot paths for nested ones); packaging units are
 * `packagingUnit1.quantity`, `packagingUnit1.unit`, `packagingUnit2.quantity`, ... Empty cells are
 * left out. Rows are numbered as a spreadsheet shows them: the header is row 1.
 */
const csvParse = lazyPackage<typeof CsvParse>('csv-parse/sync');

const PACKAGING_UNIT = /^packagingUnit(\d+)\.(.+)$/;

interface Column {
  path: (string | number)[];
  shape: Shape;
}

export interface ArticleRow {
  row: number;
  body: Record<string, unknown>;
  problems: Problem[];
}

export type ArticleCsv = { ok: true; rows: ArticleRow[] } | { ok: false; problems: Problem[] };

function columnOf(header: string, article: Shape): Column | Problem {
  const unit = PACKAGING_UNIT.exec(header);
  if (unit?.[1] !== undefined && unit[2] !== undefined && Number(unit[1]) >= 1) {
    const shape = fieldShape(article, ['packagingUnits', unit[2]]);
    if (shape !== undefined)
      return { path: ['packagingUnits', Number(unit[1]) - 1, unit[2]], shape };
  }
  // Every kind may carry the ERP's stamp (messages/stamp.ts); it is no article field.
  if (header === ERP_STAMP) return { path: [ERP_STAMP], shape: { kind: 'leaf', type: 'string' } };
  const parts = header.split('.');
  const shape = fieldShape(article, parts);
  if (shape === undefined || header === '') {
    return { row: 1, message: `column "${header}" is not an article field; check the header` };
  }
  return { path: parts, shape };
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
    const cell = typedCell(column.shape, text, number);
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

/** The article's fields as the platform's schema has them, built at the first article CSV. */
let articleShape: Shape | undefined;

/** `kind` is the article inbox kind: each row is checked as a message of it. */
export function parseArticleCsv(
  text: string,
  options: ReadContext['options']['csv'],
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
  const article = (articleShape ??= shapeOf(entitySchema('article')));
  const columns: Column[] = [];
  const twice = duplicateColumns(header, (name) => name !== '');
  const problems: Problem[] = twice.map(({ message }) => ({ row: 1, message }));
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

/**
 * The messages of an article CSV in the article CSV's own layout (its encoding
 * `erp.file.csv.encoding`): a message per article, the rows of one article one message.
 */
export function articleMessages(
  bytes: Uint8Array,
  file: InboxFile,
  ctx: ReadContext,
): FileMessages {
  const decoded = decode(bytes, ctx.options.csv.encoding);
  if (!decoded.ok) return refusedFile(decoded.reason);
  const article = ctx.kinds.formats.article;
  const csv = parseArticleCsv(decoded.text, ctx.options.csv, article);
  if (!csv.ok) return refusedFile('not a readable article CSV', csv.problems);
  const reads = csv.rows.map(({ row, body, problems }): RowRead => {
    if (problems.length > 0) return { ok: false, problems, key: article.key(body) };
    const { body: message, stamp } = withoutStamp(body);
    const stamped = stamp === undefined ? {} : { stamp };
    return { ok: true, message: { body: message, ...stamped, rows: [row], places: [{ row }] } };
  });
  return keyedMessages(article, file, reads, [], ctx, 'row');
}
