import type { CsvOptions } from '../format.js';

export const DEFAULT_CSV_OPTIONS: CsvOptions = {
  delimiter: ',',
  quote: '"',
  quoting: 'asNeeded',
  header: true,
  encoding: 'utf-8',
  decimalComma: false,
  dateFormat: 'iso',
  timeZone: 'Europe/Berlin',
  lineEnding: 'lf',
  columns: {},
};

export const CSV_PROFILE_NAMES = ['de'] as const;
type CsvProfileName = (typeof CSV_PROFILE_NAMES)[number];

/** What German ERPs import without a second look: `;`, `12,5`, Windows-1252, CRLF, `dd.mm.yyyy`. */
const CSV_PROFILES: Record<CsvProfileName, Partial<CsvOptions>> = {
  de: {
    delimiter: ';',
    decimalComma: true,
    encoding: 'windows-1252',
    lineEnding: 'crlf',
    dateFormat: 'de',
  },
};

/** The defaults with a profile's settings on top; options given one by one go on top of this. */
export function csvProfile(profile: CsvProfileName | undefined): CsvOptions {
  return { ...DEFAULT_CSV_OPTIONS, ...(profile === undefined ? {} : CSV_PROFILES[profile]) };
}
