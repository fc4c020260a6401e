/**
 * Date patterns of the mapping (`date: dd.MM.yyyy HH:mm`): `yyyy`, `MM`, `dd`, `HH`, `mm`, `ss`
 * and literal characters. Outbound a platform date or date-time is written in the pattern (a
 * date-time with an offset in the file's time zone); inbound text in the pattern is read back
 * into a date (`2026-03-04`) or, with a time, an instant (`2026-03-04T08:15:00.000Z`).
 */

import { isoDay, wallClockIn as wallClock, type WallClock } from '../../shared/timeZone.js';
import type { ClockChange } from './spec.js';
import { DAY_MS } from '../../shared/clock.js';

const TOKEN = /yyyy|MM|dd|HH|mm|ss/g;
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

type Token = keyof WallClock;
type Parts = WallClock;

/** Why `pattern` is no date pattern, or undefined. */
export function datePatternProblem(pattern: string): string | undefined {
  const literal = pattern.replace(TOKEN, '');
  const letter = /[A-Za-z]/.exec(literal)?.[0];
  if (letter !== undefined) {
    return `"${letter}" is no part of a date pattern: use yyyy, MM, dd, HH, mm, ss (e.g. dd.MM.yyyy)`;
  }
  const missing = ['yyyy', 'MM', 'dd'].filter((token) => !pattern.includes(token));
  return missing.length === 0
    ? undefined
    : `a date pattern needs yyyy, MM and dd; ${missing.join(', ')} missing (e.g. dd.MM.yyyy)`;
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

function fill(pattern: string, parts: Parts): string {
  return pattern.replace(TOKEN, (token) =>
    token === 'yyyy' ? String(parts.yyyy).padStart(4, '0') : twoDigits(parts[token as Token]),
  );
}

const utcOf = (p: Parts) => Date.UTC(p.yyyy, p.MM - 1, p.dd, p.HH, p.mm, p.ss);

/**
 * The instants whose wall clock in `timeZone` is `parts`, earliest first: one; two where the
 * clock is set back and the hour comes twice; none where it skips the hour. Then the two are
 * the time read with the offsets after and before the change (earlier, later).
 */
function instantsOf(parts: Parts, timeZone: string): { found: number[]; around: number[] } {
  const local = utcOf(parts);
  const offset = (at: number) => utcOf(wallClock(new Date(at), timeZone)) - at;
  // A zone changes its offset at most once a day: the offsets a day before and after are all
  // this wall clock can have.
  const offsets = [...new Set([offset(local - DAY_MS), offset(local + DAY_MS)])];
  const around = offsets.map((o) => local - o).sort((a, b) => a - b);
  return { found: around.filter((at) => local - offset(at) === at), around };
}

function instantOf(
  text: string,
  parts: Parts,
  timeZone: string,
  clockChange: ClockChange | undefined,
): ParsedDate {
  const { found, around } = instantsOf(parts, timeZone);
  const [only] = found;
  if (found.length === 1 && only !== undefined) return { value: new Date(only).toISOString() };
  const chosen = clockChange === 'later' ? around.at(-1) : around[0];
  if (clockChange !== undefined && chosen !== undefined) {
    return { value: new Date(chosen).toISOString() };
  }
  const what =
    found.length === 0
      ? `does not exist in ${timeZone} (the clock skips that hour)`
      : `is there twice in ${timeZone} (the clock is set back that night)`;
  return {
    problem: `"${text}" ${what}: set clockChange: earlier or later on the field to say which instant it is, or have the ERP write the offset or UTC`,
  };
}

/**
 * `value` in `pattern` when it is a platform date (`2026-03-04`) or date-time; any other value
 * is kept as it is (a mapping does not lose what it cannot read as a date).
 */
export function formatDate(value: unknown, pattern: string, timeZone: string): unknown {
  return typeof value === 'string' ? formatDateText(value, pattern, timeZone) : value;
}

/**
 * formatDate() of a text; a platform date without time in `datePattern` (a mapping's one
 * pattern serves both, the CSV's German dates leave the time out).
 */
export function formatDateText(
  value: string,
  pattern: string,
  timeZone: string,
  datePattern = pattern,
): string {
  const date = DATE_ONLY.exec(value);
  if (date) {
    const [, y, m, d] = date.map(Number);
    return fill(datePattern, { yyyy: y ?? 0, MM: m ?? 0, dd: d ?? 0, HH: 0, mm: 0, ss: 0 });
  }
  const time = DATE_TIME.exec(value);
  if (!time) return value;
  // Without an offset the value is a wall-clock time already; it is not moved.
  if (time[7] === undefined) {
    const [y, m, d, h, min, s = 0] = time.slice(1, 7).map((n) => Number(n ?? 0));
    return fill(pattern, { yyyy: y ?? 0, MM: m ?? 0, dd: d ?? 0, HH: h ?? 0, mm: min ?? 0, ss: s });
  }
  const instant = new Date(value);
  return Number.isNaN(instant.getTime()) ? value : fill(pattern, wallClock(instant, timeZone));
}

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function patternRegex(pattern: string): { regex: RegExp; order: Token[] } {
  const order: Token[] = [];
  let source = '';
  let last = 0;
  for (const match of pattern.matchAll(TOKEN)) {
    source += escaped(pattern.slice(last, match.index));
    order.push(match[0] as Token);
    source += match[0] === 'yyyy' ? '(\\d{4})' : '(\\d{1,2})';
    last = match.index + match[0].length;
  }
  source += escaped(pattern.slice(last));
  return { regex: new RegExp(`^${source}$`), order };
}

/** A four-digit year before this is no date an ERP means (`0026` is a typing error, not 26 AD). */
const FIRST_YEAR = 1900;

const LIMITS: Record<Token, [number, number]> = {
  yyyy: [FIRST_YEAR, 9999],
  MM: [1, 12],
  dd: [1, 31],
  HH: [0, 23],
  mm: [0, 59],
  ss: [0, 59],
};

export type ParsedDate = { value: string } | { problem: string };

/**
 * Text in `pattern` as a platform date, or a date-time instant when the pattern has a time: the
 * local time in `timeZone`. One the clock skips or repeats is refused unless `clockChange`
 * says which instant it is; a year before 1900 is refused.
 */
export function parseDate(
  text: string,
  pattern: string,
  timeZone: string,
  clockChange?: ClockChange,
): ParsedDate {
  const { regex, order } = patternRegex(pattern);
  const match = regex.exec(text);
  const wrong = { problem: `"${text}" is not a date in the pattern ${pattern}` };
  if (!match) return wrong;
  const parts: Parts = { yyyy: 0, MM: 0, dd: 0, HH: 0, mm: 0, ss: 0 };
  order.forEach((token, index) => (parts[token] = Number(match[index + 1])));
  if (order.includes('yyyy') && parts.yyyy < FIRST_YEAR) {
    return {
      problem: `"${text}": the year ${match[order.indexOf('yyyy') + 1] ?? ''} is before ${FIRST_YEAR}; check the date the ERP wrote`,
    };
  }
  const outside = order.some((t) => parts[t] < LIMITS[t][0] || parts[t] > LIMITS[t][1]);
  const day = new Date(Date.UTC(parts.yyyy, parts.MM - 1, parts.dd));
  if (outside || day.getUTCDate() !== parts.dd) return wrong;
  if (!order.includes('HH')) return { value: isoDay(parts) };
  return instantOf(text, parts, timeZone, clockChange);
}
