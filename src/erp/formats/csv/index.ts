/**
 * CSV: the outbox writes a file per batch (the schema's columns, the chosen `columns`, or a
 * mapping's); the inbox reads a kind's CSV files in its mapping's layout (read.ts), the article
 * CSV also in its own, older one (article.ts).
 */
import type { FileFormat } from '../format.js';
import { csvMessages } from './read.js';
import { csvFile } from './write.js';

export const CSV_FORMAT: FileFormat = {
  name: 'csv',
  batches: true,
  write: csvFile,
  read: csvMessages,
};
