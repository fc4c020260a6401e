import { PLAIN_DECIMAL, plainNumber } from '../../../shared/decimals.js';
import { formatDateText } from '../../mapping/dates.js';
import type { CsvOptions } from '../../outbound/file/options.js';

/** `dateFormat: de`: dates as 04.03.2026, date-times to the second in the file's time zone. */
function formatString(value: string, options: CsvOptions): string {
  if (options.dateFormat !== 'de') return value;
  return formatDateText(value, 'dd.MM.yyyy HH:mm:ss', options.timeZone, 'dd.MM.yyyy');
}

/**
 * Characters that make a spreadsheet read a cell as a formula (`=`, `+`, `-`, `@`) or that some
 * take as such after a tab or carriage return. Such a text cell gets a leading `'`, which
 * spreadsheets show as text and ERP imports keep as a visible mark (OWASP "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

function number(text: string, options: CsvOptions): string {
  return options.decimalComma ? text.replace('.', ',') : text;
}

function text(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * The text of one CSV cell. Numbers, and decimals sent as text in a column the schema calls
 * numeric, are written as numbers in plain notation (`-3` stays `-3`, with the decimal comma when asked). Every
 * other text is neutralised when it starts like a formula: a text column is known to be text by
 * its field, never by whether its value looks like a number. Objects and arrays are JSON.
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
