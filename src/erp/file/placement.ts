import { join } from 'node:path';
import { errorMessage } from '../../shared/errors.js';
import type { DeliveryOutcome, OutboundRecord } from '../adapter.js';
import { errorCode, fsyncFolder, renameIntoPlace, type OutboxFs } from './atomicWrite.js';
import { recordBaseName, safeSuffix } from './names.js';

/** Errors that will not pass by waiting: the name itself is refused by the file system. */
const PERMANENT_CODES = new Set(['ENAMETOOLONG', 'EINVAL']);

/**
 * Files written at once, each holding one file descriptor while it is written. An fsync keeps
 * one of Node's 4 file system threads waiting for the disk; 8 in flight keep all 4 busy. A raw
 * test on the benchmark machine wrote 764 small fsynced files/s one at a time, 1,000-6,000/s with
 * 4-16 in flight.
 */
export const FILES_IN_FLIGHT = 8;

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

/** A file to put into the folder; its bytes are made only when it is written. */
export interface OutboxFile {
  name: string;
  content(): Uint8Array;
}

const EMPTY = new Uint8Array();

const dataConflict = (path: string) =>
  `${path} already exists with other content; it was left unchanged. ` +
  'Compare it with the record, then move it away and retry the record';

const markerConflict = (path: string) =>
  `${path} is not the empty marker this adapter writes; remove it and retry`;

/** `task` for each of `items`, at most `limit` at once. */
async function inFlight<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  // One iterator shared by the lanes: each takes the next item when it is free.
  const next = items.values();
  const lane = async () => {
    for (const item of next) await task(item);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
}

async function putOne(
  context: PlaceContext,
  file: OutboxFile,
  conflict: (path: string) => string,
  present: ReadonlySet<string>,
): Promise<Placement> {
  try {
    const { fs, dir, fileMode } = context;
    const result = await renameIntoPlace(fs, dir, file.name, file.content(), fileMode, present);
    return result.status === 'conflict'
      ? { status: 'rejected', reason: conflict(result.path) }
      : OK;
  } catch (error) {
    return failure(error, context.dir);
  }
}

/**
 * Renames the files into the folder, FILES_IN_FLIGHT at a time, after one listing of the folder
 * tells which of them may be there already, then fsyncs the folder once for
 * all of them: none is in place before that fsync, and if it fails none is (they are retried,
 * and then found identical). A failure of one file fails that file alone.
 */
async function putAll<F extends OutboxFile>(
  context: PlaceContext,
  files: readonly F[],
  conflict: (path: string) => string,
): Promise<Map<F, Placement>> {
  if (files.length === 0) return new Map();
  let present: ReadonlySet<string>;
  try {
    present = new Set(await context.fs.readdir(context.dir));
  } catch (error) {
    const failed = failure(error, context.dir);
    return new Map(files.map((file) => [file, failed]));
  }
  const placed = new Map<F, Placement>(files.map((file) => [file, OK]));
  await inFlight(files, FILES_IN_FLIGHT, async (file) => {
    placed.set(file, await putOne(context, file, conflict, present));
  });
  const inPlace = [...placed].filter(([, placement]) => placement.status === 'ok');
  if (inPlace.length === 0) return placed;
  try {
    // Also after files found identical: a repeat after a crash may find the rename not yet durable.
    await fsyncFolder(context.fs, context.dir);
  } catch (error) {
    for (const [file] of inPlace) placed.set(file, failure(error, context.dir));
  }
  return placed;
}

/**
 * Puts files into the context's folder so that a reader never sees half of one; a file in place
 * is durable (data and folder fsynced). With `doneMarker`, then the `.done` marker of each file in
 * place, after that folder fsync, so no marker is seen before its file is durable: two folder
 * fsyncs for all the files, not two per file. A file already there with other bytes is never
 * overwritten: it is rejected with the file named, for a person to look at.
 */
export async function placeAll<F extends OutboxFile>(
  context: PlaceContext,
  files: readonly F[],
): Promise<Map<F, Placement>> {
  const placed = await putAll(context, files, dataConflict);
  if (!context.doneMarker) return placed;
  const markers = [...placed]
    .filter(([, placement]) => placement.status === 'ok')
    .map(([file]) => ({ of: file, name: `${file.name}.done`, content: () => EMPTY }));
  for (const [marker, placement] of await putAll(context, markers, markerConflict)) {
    placed.set(marker.of, placement);
  }
  return placed;
}

/**
 * The binary companions of the records, beside them as `<_id>_<version>.<suffix>`, all placed
 * before any record file is written. A suffix equal to the record file's own extension gets
 * `.file.` in front, so the two never share a name. Per record: ok, or its first companion's
 * failure.
 */
export async function placeCompanions(
  context: PlaceContext,
  items: readonly OutboundRecord[],
  recordExtension: string | undefined,
): Promise<Map<OutboundRecord, Placement>> {
  const files = items.flatMap((item) => {
    const base = recordBaseName(item.id, item.version);
    return (item.files ?? []).map((file) => {
      const suffix = safeSuffix(file.suffix);
      const name = suffix === recordExtension ? `${base}.file.${suffix}` : `${base}.${suffix}`;
      return { item, name, content: () => file.data };
    });
  });
  const results = new Map<OutboundRecord, Placement>(items.map((item) => [item, OK]));
  for (const [file, placement] of await placeAll(context, files)) {
    if (results.get(file.item)?.status === 'ok') results.set(file.item, placement);
  }
  return results;
}

export const folderOf = (outbox: string, resource: string): string => join(outbox, resource);
