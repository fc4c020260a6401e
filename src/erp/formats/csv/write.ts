import type * as CsvStringify from 'csv-stringify/sync';
import type { ResourceName } from '../../../contract/index.js';
import { lazyPackage } from '../../../shared/lazyPackage.js';
import { PLAIN_DECIMAL, plainNumber } from '../../../shared/decimals.js';
import { formatDateText } from '../../mapping/dates.js';
import { resourceColumns } from '../../mapping/sources.js';
import { columnsMapping, outboundRows, type OutField } from '../../mapping/index.js';
import { fixedWidth } from '../../mapping/values.js';
import { writeEach, type CsvOptions, type WriteOptions, type Written } from '../format.js';
import { mappingOf } from '../outboundMapping.js';
import { encodeText } from '../text.js';

// Loaded when a config writes CSV, not at every start.
const csvStringify = lazyPackage<typeof CsvStringify>('csv-stringify/sync');

/** `dateFormat: de`: dates as 04.03.2026, date-times to the second in the file's time zone. */
function formatString(value: string, options: CsvOptions): string {
  if (options.dateFormat !== 'de') return value;
  return formatDateText(value, 'dd.MM.yyyy HH:mm:ss', options.timeZone, 'dd.MM.yyyy');
}

/**
 * A text cell that a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, some after a tab
 * or carriage return) gets a leading `'`, shown as text (OWASP "CSV injection").
 */
const text = (value: string): string => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const number = (text: string, options: CsvOptions): string =>
  options.decimalComma ? text.replace('.', ',') : text;

/**
 * The text of one CSV cell. Numbers, and decimals as text in a column the schema calls numeric,
 * in plain notation (with the decimal comma when asked); other text neutralised when it starts
 * like a formula (a column is text by its field, never by how its value looks); objects as JSON.
 */
export function formatCell(value: unknown, options: CsvOptions, numeric: boolean): string {
  if (value === null || value === undefined) return '';
  // Plain notation: `1e21` is written as its 22 digits, which every ERP reads.
  if (typeof value === 'number') return number(plainNumber(value), options);
  if (typeof value === 'string') {
    if (numeric && PLAIN_DECIMAL.test(value)) return number(value, options);
    return text(formatString(value, options));
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return text(JSON.stringify(value));
}

/** The text of one cell: CSV's own rules (formatCell), then the field's decimal comma and width. */
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
 * One CSV file for a batch of records of one resource, a row per order line; the columns are the
 * mapping's (`erp.file.mapping.<resource>`), else the chosen `columns`, else every field of the
 * schema and the enrichment, each named by its path.
 */
export function csvFile(
  resource: ResourceName,
  records: readonly Record<string, unknown>[],
  options: WriteOptions,
): Written {
  const { csv } = options;
  const columns = csv.columns[resource] ?? resourceColumns(resource).map((leaf) => leaf.path);
  const mapping = mappingOf(resource, options) ?? columnsMapping(resource, columns, csv.timeZone);
  const header = mapping.fields.map((field) => field.target);
  return writeEach(
    records,
    (record) =>
      outboundRows(mapping, record).map((row) =>
        mapping.fields.map((field, n) => cellText(field, row[n], csv)),
      ),
    (cells) => {
      const text = csvStringify().stringify(csv.header ? [header, ...cells] : cells, {
        delimiter: csv.delimiter,
        quote: csv.quote,
        quoted: csv.quoting === 'all',
        record_delimiter: csv.lineEnding === 'crlf' ? 'windows' : 'unix',
      });
      return encodeText(text, csv.encoding);
    },
  );
}
