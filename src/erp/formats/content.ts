import type { ResourceName } from '../../contract/index.js';
import type { OutboundRecord } from '../adapter.js';
import { Unwritable } from '../mapping/values.js';
import { csvFile, eachRecord, type BatchContent } from './csv/write.js';
import { mappedObjects, mappingOf } from './mapped.js';
import { openTransOrder, type OpenTransOrderResource } from './openTrans/write.js';
import { OPENTRANS_UNITS_TABLE } from './openTrans/units.js';
import type { FileAdapterOptions, OutboxFormat } from '../outbound/file/options.js';
import { xmlFile } from './xml/write.js';

/** Orders openTRANS has a document for; every other resource is written as plain XML. */
const OPENTRANS_RESOURCES: ReadonlySet<ResourceName> = new Set(['singleOrder', 'directOrder']);
const isOpenTransResource = (resource: ResourceName): resource is OpenTransOrderResource =>
  OPENTRANS_RESOURCES.has(resource);

export const isBatchFormat = (format: OutboxFormat): format is 'ndjson' | 'csv' =>
  format === 'ndjson' || format === 'csv';

/** A one-record file, or why the record cannot be written as it is. */
export type RecordContent = { data: Buffer } | { refused: string };

/**
 * A one-record file: `json` pretty-printed, `xml` plain or openTRANS; with a mapping
 * (`erp.file.mapping.<resource>`) the record in the ERP's layout (json: its rows as a list when
 * the mapping writes lines as rows).
 */
export function recordContent(item: OutboundRecord, options: FileAdapterOptions): RecordContent {
  try {
    return rendered(item, options);
  } catch (error) {
    if (error instanceof Unwritable) return { refused: error.message };
    throw error;
  }
}

function rendered(item: OutboundRecord, options: FileAdapterOptions): RecordContent {
  const mapping = mappingOf(item.resource, options);
  if (options.format === 'xml') {
    if (options.openTrans && isOpenTransResource(item.resource)) {
      const units = options.valueTables[OPENTRANS_UNITS_TABLE];
      return openTransOrder(item.record, options.openTransParties, units);
    }
    if (mapping === undefined) return { data: xmlFile(item.resource, item.record) };
    const [mapped = {}] = mappedObjects(mapping, item.record);
    return { data: xmlFile(mapping.root, mapped as Record<string, unknown>) };
  }
  const objects = mapping === undefined ? [item.record] : mappedObjects(mapping, item.record);
  const content = mapping?.lines === 'rows' ? objects : objects[0];
  return { data: Buffer.from(`${JSON.stringify(content, null, 2)}\n`, 'utf8') };
}

/**
 * A batch file: `ndjson` one record (with a mapping: one object or row) per line, or `csv`;
 * and the records the ERP's layout cannot say, left out.
 */
export function batchContent(
  resource: ResourceName,
  records: readonly Record<string, unknown>[],
  options: FileAdapterOptions,
): BatchContent {
  const mapping = mappingOf(resource, options);
  if (options.format === 'csv') return csvFile(resource, records, options.csv, mapping);
  const { parts, refused } = eachRecord(records, (record) =>
    mapping === undefined ? [record] : mappedObjects(mapping, record),
  );
  const data = Buffer.from(parts.map((line) => `${JSON.stringify(line)}\n`).join(''), 'utf8');
  return { data, refused };
}
