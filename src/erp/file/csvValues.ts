import type { CsvOptions } from './options.js';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function germanDateTime(value: string, timeZone: string): string | undefined {
  const match = DATE_TIME.exec(value);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '00', zone] = match;
  // Without an offset the value is a wall-clock time already; we do not move it.
  if (zone === undefined) return `${day}.${month}.${year} ${hour}:${minute}:${second}`;
  const parts = new Intl.DateTimeFormat('de-DE', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(value));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? '';
  return `${part('day')}.${part('month')}.${part('year')} ${part('hour')}:${part('minute')}:${part('second')}`;
}

function formatString(value: string, options: CsvOptions): string {
  if (options.dateFormat !== 'de') return value;
  const dateOnly = DATE_ONLY.exec(value);
  if (dateOnly) return `${dateOnly[3]}.${dateOnly[2]}.${dateOnly[1]}`;
  return germanDateTime(value, options.timeZone) ?? value;
}

/** A decimal number as text: what a numeric column may hold as a string (`"25.47"`, `"-3"`). */
const DECIMAL_TEXT = /^-?\d+(?:\.\d+)?$/;

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
 * numeric, are written as numbers (`-3` stays `-3`, with the decimal comma when asked). Every
 * other text is neutralised when it starts like a formula: a text column is known to be text by
 * its field, never by whether its value looks like a number. Objects and arrays are JSON.
 */
export function formatCell(value: unknown, options: CsvOptions, numeric: boolean): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return number(String(value), options);
  if (typeof value === 'string') {
    if (numeric && DECIMAL_TEXT.test(value)) return number(value, options);
    return text(formatString(value, options));
  }
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return text(JSON.stringify(value));
}
