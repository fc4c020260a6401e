import type * as CsvStringify from 'csv-stringify/sync';
import type { ResourceName } from '../../contract/index.js';
import { lazyPackage } from '../../shared/lazyPackage.js';
import { encodeWindows1252 } from '../windows1252.js';
import { formatCell } from './csvValues.js';
import type { CsvEncoding, CsvOptions } from './options.js';
import { numericColumns, resourceColumns } from './csvColumns.js';
import { cellValue, rowsOf } from './rows.js';

// Loaded when a config writes CSV, not at every start.
const csvStringify = lazyPackage<typeof CsvStringify>('csv-stringify/sync');

export function encodeText(text: string, encoding: CsvEncoding): Buffer {
  if (encoding === 'windows-1252') return encodeWindows1252(text);
  return Buffer.from(encoding === 'utf-8-bom' ? `\uFEFF${text}` : text, 'utf8');
}

/** One CSV file for a batch of records of one resource; orders get a row per order line. */
export function csvFile(
  resource: ResourceName,
  records: readonly Record<string, unknown>[],
  options: CsvOptions,
): Buffer {
  const rows = rowsOf(resource, records);
  const columns = options.columns[resource] ?? resourceColumns(resource).map((leaf) => leaf.path);
  const numeric = numericColumns(resource);
  const cells = rows.map((row) =>
    columns.map((column) =>
      formatCell(cellValue(resource, row, column), options, numeric.has(column)),
    ),
  );
  const text = csvStringify().stringify(options.header ? [columns, ...cells] : cells, {
    delimiter: options.delimiter,
    quote: options.quote,
    quoted: options.quoting === 'all',
    record_delimiter: options.lineEnding === 'crlf' ? 'windows' : 'unix',
  });
  return encodeText(text, options.encoding);
}
