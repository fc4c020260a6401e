/**
 * The ERP's file formats, each in a folder of its own with the same anatomy, so that knowing one
 * teaches all: `read.ts` reads the format's bytes into messages, `write.ts` writes records into
 * its bytes, and `index.ts` exports one descriptor (`FileFormat`, format.ts) that names both;
 * what else a folder holds only that format needs (csv/article.ts, openTrans/'s answers and
 * schemas). json/ (with NDJSON), csv/, xml/, openTrans/. Shared by them: format.ts (the
 * descriptor, the options), text.ts (decoding and encoding), outboundMapping.ts and
 * inboundRecords.ts (a mapping applied to records, and to a file's records).
 */
import type { ResourceName } from '../../contract/index.js';
import { isOpenTransOrder, type OutboxFormat } from '../mapping/spec.js';
import { OPENTRANS_FOLDER, type InboxFolder } from '../messages/kinds.js';
import { CSV_FORMAT } from './csv/index.js';
import type { FileFormat, WriteOptions } from './format.js';
import { JSON_FORMAT, NDJSON_FORMAT } from './json/index.js';
import { OPENTRANS_FORMAT } from './openTrans/index.js';
import { XML_FORMAT } from './xml/index.js';

const OUTBOX: Readonly<Record<OutboxFormat, FileFormat>> = {
  json: JSON_FORMAT,
  ndjson: NDJSON_FORMAT,
  csv: CSV_FORMAT,
  xml: XML_FORMAT,
};

/**
 * The format a resource's records are written in: openTRANS for the orders it has a document
 * for (`openTrans: true`, format `xml`), else `erp.file.format`.
 */
export function outboxFormat(
  resource: ResourceName,
  options: Pick<WriteOptions, 'format' | 'openTrans'>,
): FileFormat {
  const openTrans = options.format === 'xml' && options.openTrans && isOpenTransOrder(resource);
  return openTrans ? OPENTRANS_FORMAT : OUTBOX[options.format];
}

/** Whether `erp.file.format` writes a file per batch of records (else one per record). */
export const isBatchFormat = (format: OutboxFormat): boolean => OUTBOX[format].batches;

/**
 * The format an inbox file is read in: openTRANS in its own folder, else by the ending of the
 * file's name (the inbox takes only the endings its folder reads: inbound/fileNames.ts).
 */
export function inboxFormat(folder: InboxFolder, file: string): FileFormat {
  if (folder === OPENTRANS_FOLDER) return OPENTRANS_FORMAT;
  const name = file.toLowerCase();
  if (name.endsWith('.csv')) return CSV_FORMAT;
  return name.endsWith('.xml') ? XML_FORMAT : JSON_FORMAT;
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
export type { OpenTransOptions } from './openTrans/answer.js';
