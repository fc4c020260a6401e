import { DEFAULT_CSV_OPTIONS } from '../../formats/csv/options.js';
import type { OpenTransParties, WriteOptions } from '../../formats/format.js';

/**
 * Files hold patient data: the owner reads and writes, the group (the ERP's, sharing the
 * folder) reads, others nothing. 0600 would lock out an ERP that runs as another user.
 */
export const DEFAULT_FILE_MODE = 0o640;

/** `erp.file.fileMode` ("0640") as the number the file system takes. */
export const fileModeOf = (octal: string): number => Number.parseInt(octal, 8);

export const DEFAULT_OPENTRANS_PARTIES: OpenTransParties = {
  buyerId: 'homecare-platform',
  supplierId: 'supplier',
};

export interface FileAdapterOptions extends WriteOptions {
  outbox: string;
  /** Write an empty `<file>.done` beside every file once the file is in place. */
  doneMarker: boolean;
  /** Mode of the files written, e.g. 0o640 (`erp.file.fileMode`). */
  fileMode: number;
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
