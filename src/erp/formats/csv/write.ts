import type * as CsvStringify from 'csv-stringify/sync';
import type { ResourceName } from '../../../contract/index.js';
import { lazyPackage } from '../../../shared/lazyPackage.js';
import { encodeWindows1252 } from '../windows1252.js';
import { formatCell } from './cells.js';
import type { CsvEncoding, CsvOptions } from '../../outbound/file/options.js';
import { resourceColumns } from '../../mapping/columns.js';
import {
  columnsMapping,
  outboundRows,
  type OutboundMapping,
  type OutField,
} from '../../mapping/index.js';
import { fixedWidth, Unwritable } from '../../mapping/values.js';

// Loaded when a config writes CSV, not at every start.
const csvStringify = lazyPackage<typeof CsvStringify>('csv-stringify/sync');

export function encodeText(text: string, encoding: CsvEncoding): Buffer {
  if (encoding === 'windows-1252') return encodeWindows1252(text);
  return Buffer.from(encoding === 'utf-8-bom' ? `\uFEFF${text}` : text, 'utf8');
}

/** The text of one cell: CSV's own rules (csvValues.ts), then the field's decimal comma and width. */
function cellText(field: OutField, value: unknown, options: CsvOptions): string {
  const decimalComma = field.spec.decimalComma ?? options.decimalComma;
  // A field's own date pattern is its last word: `dateFormat` does not write it again.
  const dateFormat = field.spec.date === undefined ? options.dateFormat : 'iso';
  const text = formatCell(value, { ...options, decimalComma, dateFormat }, field.numeric);
  return field.width === undefined || text === ''
    ? text
    : fixedWidth(text, field.width, field.target);
}

/**
 * What a batch file holds, and the records it leaves out: by their index in the batch, why the
 * ERP's layout cannot say them (a value wider than its width). A refused record is refused the
 * same way on every try, so the file of the others stays the same.
 */
export interface BatchContent {
  data: Buffer;
  refused: ReadonlyMap<number, string>;
}

/** Each record's part of a batch file, or why the record is left out (an Unwritable). */
export function eachRecord<T>(
  records: readonly Record<string, unknown>[],
  render: (record: Record<string, unknown>) => T[],
): { parts: T[]; refused: Map<number, string> } {
  const parts: T[] = [];
  const refused = new Map<number, string>();
  records.forEach((record, index) => {
    try {
      parts.push(...render(record));
    } catch (error) {
      if (!(error instanceof Unwritable)) throw error;
      refused.set(index, error.message);
    }
  });
  return { parts, refused };
}

/**
 * One CSV file for a batch of records (and the records it leaves out, see BatchContent) of one resource; orders get a row per order line. The
 * columns are the mapping's (`erp.file.mapping.<resource>`), else the chosen `columns`, else
 * every field of the schema, each named by its path.
 */
export function csvFile(
  resource: ResourceName,
  records: readonly Record<string, unknown>[],
  options: CsvOptions,
  mapping: OutboundMapping = columnsMapping(
    resource,
    options.columns[resource] ?? resourceColumns(resource).map((leaf) => leaf.path),
    options.timeZone,
  ),
): BatchContent {
  const { parts: cells, refused } = eachRecord(records, (record) =>
    outboundRows(mapping, record).map((row) =>
      mapping.fields.map((field, n) => cellText(field, row[n], options)),
    ),
  );
  const header = mapping.fields.map((field) => field.target);
  const text = csvStringify().stringify(options.header ? [header, ...cells] : cells, {
    delimiter: options.delimiter,
    quote: options.quote,
    quoted: options.quoting === 'all',
    record_delimiter: options.lineEnding === 'crlf' ? 'windows' : 'unix',
  });
  return { data: encodeText(text, options.encoding), refused };
}
