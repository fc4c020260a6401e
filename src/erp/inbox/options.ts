import { DEFAULT_FILE_MODE, type CsvOptions } from '../file/options.js';
import type { UnknownFields } from './fields.js';

export interface InboxOptions {
  inbox: string;
  /** Take a file only once `<file>.done` is beside it. */
  doneMarker: boolean;
  /** Without markers: size and mtime must stay the same over two looks this far apart. */
  minFileAgeMs: number;
  maxFileBytes: number;
  /** Charset of JSON files; CSV files follow `csv.encoding`. */
  charset: 'utf-8' | 'windows-1252';
  csv: Pick<CsvOptions, 'delimiter' | 'quote' | 'encoding' | 'decimalComma'>;
  /** One bad row rejects the whole article CSV file; otherwise the good rows go through. */
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
}

export const DEFAULT_INBOX_OPTIONS: Omit<InboxOptions, 'inbox'> = {
  doneMarker: false,
  minFileAgeMs: 2_000,
  maxFileBytes: 50 * 1024 * 1024,
  charset: 'utf-8',
  csv: { delimiter: ',', quote: '"', encoding: 'utf-8', decimalComma: false },
  csvAllOrNothing: false,
  fileMode: DEFAULT_FILE_MODE,
  timeZone: 'UTC',
  unknownFields: 'refuse',
};
