import { join } from 'node:path';
import { errorCode, errorMessage } from '../../../shared/errors.js';
import type { DeliveryOutcome } from '../../adapter.js';
import { fsyncFolder, namesIn, renameIntoPlace, type OutboxFs } from './atomicWrite.js';
import { makeFolders } from '../../../shared/folders.js';

/** Errors that will not pass by waiting: the name itself is refused by the file system. */
const PERMANENT_CODES = new Set(['ENAMETOOLONG', 'EINVAL']);

/**
 * Files written at once: an fsync keeps one of Node's 4 file system threads waiting for the
 * disk, 8 in flight keep all 4 busy (764 small fsynced files/s one at a time, 1,000-6,000/s with
 * 4-16 in flight, on the benchmark machine).
 */
export const FILES_IN_FLIGHT = 8;

export type Placement = { status: 'ok' } | Exclude<DeliveryOutcome, { status: 'delivered' }>;

export const OK: Placement = { status: 'ok' };

export const isOk = (placement: Placement | undefined): boolean => placement?.status === 'ok';

/** `where` is the file, or the folder when the failure is the folder's. */
export function failure(error: unknown, where: string): Placement {
  const code = errorCode(error);
  const what = `could not write ${where}: ${errorMessage(error)}`;
  if (code !== undefined && PERMANENT_CODES.has(code)) return { status: 'rejected', reason: what };
  return {
    status: 'retry',
    reason: `${what}; check free space and write permission of the outbox folder`,
  };
}

/** Where and how the files of one call go: plain data, so it can be sent to the writer thread. */
export interface PlaceRequest {
  dir: string;
  doneMarker: boolean;
  /** Mode of every file written (`erp.file.fileMode`). */
  fileMode: number;
  files: readonly OutboxFile[];
}

/** A file to put into the folder. */
export interface OutboxFile {
  name: string;
  data: Uint8Array;
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

/** The names in the folder, which is created when it is not there yet. */
async function namesInMade(fs: OutboxFs, dir: string): Promise<ReadonlySet<string>> {
  const names = await namesIn(fs, dir);
  if (names === undefined) await makeFolders((path, options) => fs.mkdir(path, options), dir);
  return new Set(names);
}

async function putOne(
  fs: OutboxFs,
  request: PlaceRequest,
  file: OutboxFile,
  conflict: (path: string) => string,
  present: ReadonlySet<string>,
): Promise<Placement> {
  const { dir, fileMode } = request;
  try {
    const result = await renameIntoPlace(fs, dir, file.name, file.data, fileMode, present);
    return result.status === 'conflict'
      ? { status: 'rejected', reason: conflict(result.path) }
      : OK;
  } catch (error) {
    return failure(error, join(dir, file.name));
  }
}

/**
 * Renames the files into the folder, FILES_IN_FLIGHT at a time, after one listing tells which
 * may be there already, then fsyncs the folder once for all: none is in place before that
 * fsync, and if it fails none is (they are retried, then found identical). A failure of one file
 * fails that file alone.
 */
async function putAll(
  fs: OutboxFs,
  request: PlaceRequest,
  files: readonly OutboxFile[],
  conflict: (path: string) => string,
): Promise<Placement[]> {
  if (files.length === 0) return [];
  let present: ReadonlySet<string>;
  try {
    present = await namesInMade(fs, request.dir);
  } catch (error) {
    return files.map(() => failure(error, request.dir));
  }
  const placed = files.map(() => OK);
  await inFlight([...files.entries()], FILES_IN_FLIGHT, async ([n, file]) => {
    placed[n] = await putOne(fs, request, file, conflict, present);
  });
  if (!placed.some(isOk)) return placed;
  try {
    // Also after files found identical: a repeat after a crash may find the rename not yet durable.
    await fsyncFolder(fs, request.dir);
  } catch (error) {
    const failed = failure(error, request.dir);
    return placed.map((placement) => (isOk(placement) ? failed : placement));
  }
  return placed;
}

/**
 * Puts files into the request's folder so that a reader never sees half of one, each in place
 * durable; with `doneMarker` then each one's `.done` marker, after that folder fsync (two folder
 * fsyncs for all the files). A file already there with other bytes is never overwritten: it is
 * rejected, named for a person to look at. One placement per file; it never throws.
 */
export async function placeAll(fs: OutboxFs, request: PlaceRequest): Promise<Placement[]> {
  const placed = await putAll(fs, request, request.files, dataConflict);
  if (!request.doneMarker) return placed;
  const inPlace = [...request.files.entries()].filter(([n]) => isOk(placed[n]));
  const markers = inPlace.map(([, file]) => ({ name: `${file.name}.done`, data: EMPTY }));
  const marked = await putAll(fs, request, markers, markerConflict);
  inPlace.forEach(([n], m) => (placed[n] = marked[m] ?? OK));
  return placed;
}

export const folderOf = (outbox: string, resource: string): string => join(outbox, resource);
