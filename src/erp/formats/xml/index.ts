/**
 * XML: the outbox writes a file per record (the record as it is, or in a mapping's layout); the
 * inbox reads a kind's XML files in its mapping's layout. Every XML file from the ERP is read
 * through parse.ts alone.
 */
import type { FileFormat } from '../format.js';
import { xmlMessages } from './read.js';
import { xmlFile } from './write.js';

export const XML_FORMAT: FileFormat = {
  name: 'xml',
  batches: false,
  write: xmlFile,
  read: xmlMessages,
};
