/**
 * The ERP's file formats, each in a folder of its own with the same anatomy, so that knowing one
 * teaches all: `read.ts` reads an inbox file's bytes into messages, `write.ts` writes records into
 * an outbox file's bytes; what else a folder holds only that format needs (csv/article.ts, the
 * answers and schema of openTrans/). Shared by them: format.ts (what a format takes and gives),
 * text.ts (decoding and encoding), outboundMapping.ts and rows.ts (a mapping applied
 * to records, and to a file's records).
 */
import type { ResourceName } from '../../contract/index.js';
import { isOpenTransOrder, type OutboxFormat } from '../mapping/spec.js';
import { OPENTRANS_FOLDER, type InboxFolder } from '../messages/kinds.js';
import { csvMessages } from './csv/read.js';
import { csvFile } from './csv/write.js';
import type { FileFormat, WriteOptions } from './format.js';
import { jsonMessages } from './json/read.js';
import { jsonFile, ndjsonFile } from './json/write.js';
import { openTransMessages } from './openTrans/read.js';
import { openTransFile } from './openTrans/write.js';
import { xmlMessages } from './xml/read.js';
import { xmlFile } from './xml/write.js';

const FORMATS = {
  /** A file per record, pretty-printed; the inbox reads a message a file. */
  json: { batches: false, write: jsonFile, read: jsonMessages },
  /** A file per batch, a record a line; written only. */
  ndjson: { batches: true, write: ndjsonFile },
  /** A file per batch; the inbox reads a kind's CSV in its mapping's layout, or the article CSV's. */
  csv: { batches: true, write: csvFile, read: csvMessages },
  /** A file per record; the inbox reads a kind's XML in its mapping's layout. */
  xml: { batches: false, write: xmlFile, read: xmlMessages },
  /**
   * openTRANS 2.1: single and direct orders as ORDER documents (format `xml`, `openTrans: true`);
   * the inbox reads ORDERRESPONSE and DISPATCHNOTIFICATION answers from `<inbox>/opentrans/`.
   */
  opentrans: { batches: false, write: openTransFile, read: openTransMessages },
} as const satisfies Record<OutboxFormat | 'opentrans', FileFormat>;

/**
 * The format a resource's records are written in: openTRANS for the orders it has a document
 * for (`openTrans: true`, format `xml`), else `erp.file.format`.
 */
export function outboxFormat(
  resource: ResourceName,
  options: Pick<WriteOptions, 'format' | 'openTrans'>,
): FileFormat {
  const openTrans = options.format === 'xml' && options.openTrans && isOpenTransOrder(resource);
  return FORMATS[openTrans ? 'opentrans' : options.format];
}

/** Whether `erp.file.format` writes a file per batch of records (else one per record). */
export const isBatchFormat = (format: OutboxFormat): boolean => FORMATS[format].batches;

/**
 * The format an inbox file is read in: openTRANS in its own folder, else by the ending of the
 * file's name (the inbox takes only the endings its folder reads: inbound/fileNames.ts).
 */
export function inboxFormat(folder: InboxFolder, file: string): FileFormat {
  if (folder === OPENTRANS_FOLDER) return FORMATS.opentrans;
  const name = file.toLowerCase();
  if (name.endsWith('.csv')) return FORMATS.csv;
  return name.endsWith('.xml') ? FORMATS.xml : FORMATS.json;
}

export type * from './format.js';
export { CSV_ENCODINGS, type CsvEncoding } from './text.js';
export { CSV_PROFILE_NAMES, DEFAULT_CSV_OPTIONS, csvProfile } from './csv/options.js';
export { parseArticleCsv, type ArticleCsv, type ArticleRow } from './csv/article.js';
export { readXml, xmlText } from './xml/parse.js';
export { readOpenTrans } from './openTrans/read.js';
export {
  orderLineItems,
  OPENTRANS_NAMESPACE,
  PATIENT_CUSTOMER_ID_FIELD,
} from './openTrans/write.js';
export { UNIT_CODES } from './openTrans/units.js';
