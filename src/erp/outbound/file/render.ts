import type { ResourceName } from '../../../contract/index.js';
import type { OutboundRecord } from '../../adapter.js';
import { outboxFormat } from '../../formats/index.js';
import { BATCH_DIGITS, batchBaseName, recordBaseName, safeSegment } from './names.js';
import type { FileAdapterOptions } from './options.js';
import type { OutboxFile } from './placement.js';

/**
 * The file of one record version (json, xml) as the adapter writes it into the resource's
 * folder, or why the format cannot say the record (an openTRANS ORDER without lines). Pure: the
 * hand-over writes what this answers, and `mapping preview` prints it.
 */
export function recordFile(
  item: OutboundRecord,
  options: FileAdapterOptions,
): { file: OutboxFile & { data: Buffer } } | { refused: string } {
  const { resource, record } = item;
  const { data, refused } = outboxFormat(resource, options).write(resource, [record], options);
  const reason = refused.get(0);
  if (reason !== undefined) return { refused: reason };
  return { file: { name: `${recordBaseName(item.id, item.version)}.${options.format}`, data } };
}

/**
 * The batch file (ndjson, csv) of one resource's records handed over as batch `batch`; without
 * one named `article_##########.csv`, for a preview. `refused`: the records (by index) left out,
 * each with why the ERP's layout cannot say it.
 */
export function batchFile(
  resource: ResourceName,
  records: readonly Record<string, unknown>[],
  batch: number | undefined,
  options: FileAdapterOptions,
): { file: OutboxFile & { data: Buffer }; refused: ReadonlyMap<number, string> } {
  const base =
    batch === undefined
      ? `${safeSegment(resource)}_${'#'.repeat(BATCH_DIGITS)}`
      : batchBaseName(resource, batch);
  const { data, refused } = outboxFormat(resource, options).write(resource, records, options);
  return { file: { name: `${base}.${options.format}`, data }, refused };
}
