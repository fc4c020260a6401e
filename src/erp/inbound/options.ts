import { DEFAULT_CSV_OPTIONS } from '../formats/csv/options.js';
import type { ReadOptions } from '../formats/format.js';
import type { InboundMappingSpec, ValueTables } from '../mapping/spec.js';
import { DEFAULT_FILE_MODE } from '../outbound/file/options.js';

export interface InboxOptions extends ReadOptions {
  inbox: string;
  /** Take a file only once `<file>.done` is beside it. */
  doneMarker: boolean;
  /** Without markers: size and mtime must stay the same over two looks this far apart. */
  minFileAgeMs: number;
  maxFileBytes: number;
  /** Mode of archived files, rejected files and reports: they hold patient data. */
  fileMode: number;
  /** IANA time zone of the archive's date folders (`timezone` in the config). */
  timeZone: string;
  /** `erp.file.inboxMapping`: files in the ERP's own layout, per kind. */
  mapping: Readonly<Record<string, InboundMappingSpec>>;
  /** `erp.file.valueTables`, which the mappings name. */
  valueTables: ValueTables;
}

const { delimiter, quote, encoding, decimalComma, timeZone } = DEFAULT_CSV_OPTIONS;

export const DEFAULT_INBOX_OPTIONS: Omit<InboxOptions, 'inbox'> = {
  doneMarker: false,
  minFileAgeMs: 2_000,
  maxFileBytes: 50 * 1024 * 1024,
  charset: 'utf-8',
  csv: { delimiter, quote, encoding, decimalComma, timeZone },
  csvAllOrNothing: false,
  fileMode: DEFAULT_FILE_MODE,
  timeZone: 'UTC',
  unknownFields: 'refuse',
  mapping: {},
  valueTables: {},
};
