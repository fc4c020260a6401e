import {
  DEFAULT_CSV_OPTIONS,
  DEFAULT_FILE_MODE,
  type CsvOptions,
} from '../outbound/file/options.js';
import type { InboundMappingSpec, ValueTables } from '../mapping/spec.js';
import type { UnknownFields } from '../messages/fields.js';

export interface InboxOptions {
  inbox: string;
  /** Take a file only once `<file>.done` is beside it. */
  doneMarker: boolean;
  /** Without markers: size and mtime must stay the same over two looks this far apart. */
  minFileAgeMs: number;
  maxFileBytes: number;
  /** Charset of JSON files; CSV files follow `csv.encoding`. */
  charset: 'utf-8' | 'windows-1252';
  /** Also the defaults of mapped CSV files; `timeZone`: of date-times a mapping reads. */
  csv: Pick<CsvOptions, 'delimiter' | 'quote' | 'encoding' | 'decimalComma'> &
    Partial<Pick<CsvOptions, 'timeZone'>>;
  /** One bad row (or mapped record) rejects the whole CSV (or mapped) file; else the good go on. */
  csvAllOrNothing: boolean;
  /** Mode of archived files, rejected files and reports: they hold patient data. */
  fileMode: number;
  /** IANA time zone of the archive's date folders (`timezone` in the config). */
  timeZone: string;
  /** A field the contract does not define: the file is refused, or the field left out. */
  unknownFields: UnknownFields;
  /**
   * The tracking link of an openTRANS dispatch notification without TRACKING_TRACING_URL:
   * `{shipmentId}` stands for its SHIPMENT_ID. Without it only the tracking code is sent.
   */
  trackingLinkTemplate?: string;
  /** `erp.file.inboxMapping`: files in the ERP's own layout, per kind. */
  mapping: Readonly<Record<string, InboundMappingSpec>>;
  /** `erp.file.valueTables`, which the mappings name. */
  valueTables: ValueTables;
}

export const DEFAULT_INBOX_OPTIONS: Omit<InboxOptions, 'inbox'> = {
  doneMarker: false,
  minFileAgeMs: 2_000,
  maxFileBytes: 50 * 1024 * 1024,
  charset: 'utf-8',
  csv: {
    delimiter: ',',
    quote: '"',
    encoding: 'utf-8',
    decimalComma: false,
    timeZone: DEFAULT_CSV_OPTIONS.timeZone,
  },
  csvAllOrNothing: false,
  fileMode: DEFAULT_FILE_MODE,
  timeZone: 'UTC',
  unknownFields: 'refuse',
  mapping: {},
  valueTables: {},
};
