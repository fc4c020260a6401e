/**
 * JSON, and NDJSON beside it: the outbox writes a file per record (json, pretty-printed) or per
 * batch (ndjson, a record a line); the inbox reads a message a file (json).
 */
import type { FileFormat } from '../format.js';
import { jsonMessages } from './read.js';
import { jsonFile, ndjsonFile } from './write.js';

export const JSON_FORMAT: FileFormat = {
  name: 'json',
  batches: false,
  write: jsonFile,
  read: jsonMessages,
};

export const NDJSON_FORMAT: FileFormat = { name: 'ndjson', batches: true, write: ndjsonFile };
