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

/** The text of one CSV cell. Objects and arrays picked as a column are written as JSON. */
export function formatCell(value: unknown, options: CsvOptions): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    const text = String(value);
    return options.decimalComma ? text.replace('.', ',') : text;
  }
  if (typeof value === 'string') return formatString(value, options);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  return JSON.stringify(value);
}
