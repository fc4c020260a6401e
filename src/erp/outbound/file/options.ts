import type { ResourceName } from '../../../contract/index.js';
import type { OutboundMappingSpec, ValueTables } from '../../mapping/spec.js';

export const OUTBOX_FORMATS = ['json', 'ndjson', 'csv', 'xml'] as const;
export type OutboxFormat = (typeof OUTBOX_FORMATS)[number];

export const CSV_ENCODINGS = ['utf-8', 'utf-8-bom', 'windows-1252'] as const;
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];

/** How CSV files are written (outbox) and read (inbox article CSV). */
export interface CsvOptions {
  /** `,` by default; German ERPs usually want `;`. */
  delimiter: string;
  quote: string;
  /** `asNeeded` quotes a cell only when it holds the delimiter, a quote or a line break. */
  quoting: 'asNeeded' | 'all';
  header: boolean;
  encoding: CsvEncoding;
  /** Numbers written as `12,5` instead of `12.5`. */
  decimalComma: boolean;
  /**
   * `iso` keeps the platform's values; `de` writes date-only values as `dd.mm.yyyy` and
   * date-times as `dd.mm.yyyy HH:MM:SS` in `timeZone`.
   */
  dateFormat: 'iso' | 'de';
  timeZone: string;
  lineEnding: 'lf' | 'crlf';
  /** Dot paths per resource, e.g. `deliveryAddress.city`; unlisted resources get a flattening. */
  columns: Partial<Record<ResourceName, readonly string[]>>;
}

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

/**
 * Files hold patient data: the owner reads and writes, the group (the ERP's, sharing the
 * folder) reads, others nothing. 0600 would lock out an ERP that runs as another user.
 */
export const DEFAULT_FILE_MODE = 0o640;

/** `erp.file.fileMode` ("0640") as the number the file system takes. */
export const fileModeOf = (octal: string): number => Number.parseInt(octal, 8);
export const CSV_PROFILE_NAMES = ['de'] as const;
export type CsvProfileName = (typeof CSV_PROFILE_NAMES)[number];

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

/** The ids openTRANS names the buyer and the supplier by; the platform knows neither. */
export interface OpenTransParties {
  buyerId: string;
  supplierId: string;
}

export const DEFAULT_OPENTRANS_PARTIES: OpenTransParties = {
  buyerId: 'homecare-platform',
  supplierId: 'supplier',
};

export interface FileAdapterOptions {
  outbox: string;
  format: OutboxFormat;
  /** Write single and direct orders as openTRANS 2.1 ORDER documents (format `xml` only). */
  openTrans: boolean;
  openTransParties: OpenTransParties;
  /** Write an empty `<file>.done` beside every file once the file is in place. */
  doneMarker: boolean;
  /** Mode of the files written, e.g. 0o640 (`erp.file.fileMode`). */
  fileMode: number;
  csv: CsvOptions;
  /** `erp.file.mapping`: the ERP's own layout per resource; a resource without one keeps ours. */
  mapping: Partial<Record<ResourceName, OutboundMappingSpec>>;
  /** `erp.file.valueTables`, which the mappings name. */
  valueTables: ValueTables;
}

export const DEFAULT_FILE_ADAPTER_OPTIONS: Omit<FileAdapterOptions, 'outbox'> = {
  format: 'json',
  openTrans: false,
  openTransParties: DEFAULT_OPENTRANS_PARTIES,
  doneMarker: false,
  fileMode: DEFAULT_FILE_MODE,
  csv: DEFAULT_CSV_OPTIONS,
  mapping: {},
  valueTables: {},
};
