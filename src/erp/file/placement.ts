import { join } from 'node:path';
import { errorMessage } from '../../shared/errors.js';
import type { DeliveryOutcome, OutboundRecord } from '../adapter.js';
import { errorCode, writeOnce, type OutboxFs } from './atomicWrite.js';
import { recordBaseName, safeSuffix } from './names.js';

/** Errors that will not pass by waiting: the name itself is refused by the file system. */
const PERMANENT_CODES = new Set(['ENAMETOOLONG', 'EINVAL']);

export type Placement = { status: 'ok' } | Exclude<DeliveryOutcome, { status: 'delivered' }>;

export const OK: Placement = { status: 'ok' };

export function failure(error: unknown, dir: string): Placement {
  const code = errorCode(error);
  const what = `could not write to ${dir}: ${errorMessage(error)}`;
  if (code !== undefined && PERMANENT_CODES.has(code)) return { status: 'rejected', reason: what };
  return {
    status: 'retry',
    reason: `${what}; check free space and write permission of the outbox folder`,
  };
}

export interface PlaceContext {
  fs: OutboxFs;
  dir: string;
  doneMarker: boolean;
  /** Mode of every file written (`erp.file.fileMode`). */
  fileMode: number;
}

/**
 * Puts one data file in place, then its `.done` marker. A file already there with other bytes
 * is never overwritten: the record is rejected with the file named, for a person to look at.
 */
export async function place(context: PlaceContext, name: string, data: Uint8Array) {
  const { fs, dir, fileMode } = context;
  try {
    const result = await writeOnce(fs, dir, name, data, fileMode);
    if (result.status === 'conflict') {
      return {
        status: 'rejected',
        reason:
          `${result.path} already exists with other content; it was left unchanged. ` +
          'Compare it with the record, then move it away and retry the record',
      } satisfies Placement;
    }
    if (context.doneMarker) {
      const marker = await writeOnce(fs, dir, `${name}.done`, new Uint8Array(), fileMode);
      if (marker.status === 'conflict') {
        return {
          status: 'rejected',
          reason: `${marker.path} is not the empty marker this adapter writes; remove it and retry`,
        } satisfies Placement;
      }
    }
    return OK;
  } catch (error) {
    return failure(error, dir);
  }
}

/**
 * The record's binary companions, beside it as `<_id>_<version>.<suffix>`. A suffix equal to
 * the record file's own extension gets `.file.` in front, so the two never share a name.
 */
export async function placeCompanions(
  context: PlaceContext,
  item: OutboundRecord,
  recordExtension: string | undefined,
): Promise<Placement> {
  const base = recordBaseName(item.id, item.version);
  for (const file of item.files ?? []) {
    const suffix = safeSuffix(file.suffix);
    const name = suffix === recordExtension ? `${base}.file.${suffix}` : `${base}.${suffix}`;
    const placed = await place(context, name, file.data);
    if (placed.status !== 'ok') return placed;
  }
  return OK;
}

export const folderOf = (outbox: string, resource: string): string => join(outbox, resource);
