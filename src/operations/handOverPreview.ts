import { join } from 'node:path';
import type { Config } from '../config/index.js';
import type { OutboundRecord } from '../erp/adapter.js';
import {
  batchFile,
  folderOf,
  isBatchFormat,
  recordFile,
  type FileAdapterOptions,
  type OutboxFile,
} from '../erp/outbound/file/index.js';
import type { ShownRequest } from '../erp/outbound/rest/index.js';
import { fileAdapterOptions, restAdapterOptions } from '../deliver/adapter.js';

/** What the configured adapter would hand the ERP for one record version. */
export type RenderedHandOver =
  | {
      adapter: 'file';
      /** Where the file goes, in the outbox. */
      path: string;
      data: Buffer;
      /** A batch file (ndjson, csv): its number is given at the hand-over; here the record alone. */
      batch: boolean;
      /** The empty marker written beside the file once it is in place (`erp.file.doneMarker`). */
      marker?: string;
    }
  | { adapter: 'rest'; request: ShownRequest }
  /** The adapter would refuse the record (it goes to the dead letters with this reason). */
  | { adapter: 'file' | 'rest'; refused: string };

/** The record alone in a batch file, or why the file leaves it out. */
function batchOf(
  outbound: OutboundRecord,
  options: FileAdapterOptions,
): { file: OutboxFile & { data: Buffer } } | { refused: string } {
  const { file, refused } = batchFile(outbound.resource, [outbound.record], undefined, options);
  const reason = refused.get(0);
  return reason === undefined ? { file } : { refused: reason };
}

function fileHandOver(config: Config, outbound: OutboundRecord): RenderedHandOver {
  const options = fileAdapterOptions(config);
  const dir = folderOf(options.outbox, outbound.resource);
  const batch = isBatchFormat(options.format);
  const rendered = batch ? batchOf(outbound, options) : recordFile(outbound, options);
  if ('refused' in rendered) return { adapter: 'file', refused: rendered.refused };
  const path = join(dir, rendered.file.name);
  return {
    adapter: 'file',
    path,
    data: rendered.file.data,
    batch,
    ...(options.doneMarker ? { marker: `${path}.done` } : {}),
  };
}

async function restHandOver(config: Config, outbound: OutboundRecord): Promise<RenderedHandOver> {
  const options = restAdapterOptions(config);
  // Loaded only when the config chooses it, as createAdapter loads it.
  const { erpRequestOf, shownRequest } = await import('../erp/outbound/rest/index.js');
  const made = erpRequestOf(options, outbound);
  if ('request' in made) return { adapter: 'rest', request: shownRequest(options, made.request) };
  // A record version is either sent or refused; only an archival event goes unsent.
  const { outcome } = made;
  return { adapter: 'rest', refused: outcome.status === 'rejected' ? outcome.reason : 'not sent' };
}

/**
 * `outbound` rendered by the adapter the config chooses, through the functions its hand-over
 * uses (recordFile/batchFile, erpRequestOf): file name and bytes, or the request with its
 * credentials masked. Writes and sends nothing.
 */
export function renderHandOver(
  config: Config,
  outbound: OutboundRecord,
): Promise<RenderedHandOver> {
  return config.erp.adapter === 'file'
    ? Promise.resolve(fileHandOver(config, outbound))
    : restHandOver(config, outbound);
}
