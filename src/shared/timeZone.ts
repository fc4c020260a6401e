/** A date and time as a clock shows it, by the pattern letters of its fields. */
export type WallClock = Record<'yyyy' | 'MM' | 'dd' | 'HH' | 'mm' | 'ss', number>;

/** One formatter per time zone: making one costs far more than using it. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** The wall clock of `at` in `timeZone` (an IANA name). */
export function wallClockIn(at: Date, timeZone: string): WallClock {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  const parts = formatter.formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  const [yyyy, MM, dd] = [part('year'), part('month'), part('day')];
  return { yyyy, MM, dd, HH: part('hour'), mm: part('minute'), ss: part('second') };
}

const twoDigits = (n: number) => String(n).padStart(2, '0');

/** A date as `YYYY-MM-DD`. */
export const isoDay = ({ yyyy, MM, dd }: WallClock): string =>
  `${String(yyyy).padStart(4, '0')}-${twoDigits(MM)}-${twoDigits(dd)}`;

/** The calendar day of `at` in `timeZone` (an IANA name), as `YYYY-MM-DD`. */
export const dayIn = (at: Date, timeZone: string): string => isoDay(wallClockIn(at, timeZone));
