import type { ResourceName } from '../../contract/index.js';
import type { OutboundRecord } from '../adapter.js';
import { csvFile } from './csvFile.js';
import { openTransOrder, type OpenTransOrderResource } from './openTrans.js';
import type { FileAdapterOptions, OutboxFormat } from './options.js';
import { xmlFile } from './xmlFile.js';

/** Orders openTRANS has a document for; every other resource is written as plain XML. */
const OPENTRANS_RESOURCES: ReadonlySet<ResourceName> = new Set(['singleOrder', 'directOrder']);
const isOpenTransResource = (resource: ResourceName): resource is OpenTransOrderResource =>
  OPENTRANS_RESOURCES.has(resource);

export const isBatchFormat = (format: OutboxFormat): format is 'ndjson' | 'csv' =>
  format === 'ndjson' || format === 'csv';

/** A one-record file, or why the record cannot be written in the format (openTRANS only). */
export type RecordContent = { data: Buffer } | { refused: string };

/** A one-record file: `json` pretty-printed, `xml` plain or openTRANS. */
export function recordContent(item: OutboundRecord, options: FileAdapterOptions): RecordContent {
  if (options.format === 'xml') {
    return options.openTrans && isOpenTransResource(item.resource)
      ? openTransOrder(item.record, options.openTransParties)
      : { data: xmlFile(item.resource, item.record) };
  }
  return { data: Buffer.from(`${JSON.stringify(item.record, null, 2)}\n`, 'utf8') };
}

/** A batch file: `ndjson` one record per line, or `csv`. */
export function batchContent(
  resource: ResourceName,
  records: readonly Record<string, unknown>[],
  options: FileAdapterOptions,
): Buffer {
  if (options.format === 'csv') return csvFile(resource, records, options.csv);
  return Buffer.from(records.map((record) => `${JSON.stringify(record)}\n`).join(''), 'utf8');
}
