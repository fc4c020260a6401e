import { isResourceName, RESOURCE_NAMES, type ResourceName } from '../../../contract/index.js';
import type { Clock } from '../../../shared/clock.js';
import { SetupError, errorMessage } from '../../../shared/errors.js';
import type { DeliveryOutcome, ErpAdapter, OutboundRecord } from '../../adapter.js';
import { nodeOutboxFs, removeStaleTemps, type OutboxFs } from './atomicWrite.js';
import { archivalFolders, placeArchivalEvents } from './archivalEvents.js';
import { highestBatchIn } from './batchNumbers.js';
import { placeCompanions, type Folder } from './companions.js';
import { isBatchFormat } from '../../formats/index.js';
import type { FileAdapterOptions } from './options.js';
import { createOutboxWriter } from './outboxWriter.js';
import { folderWritable } from './probe.js';
import { folderOf, OK, placeAll, type OutboxFile, type Placement } from './placement.js';
import { batchFile, recordFile } from './render.js';
import { makeFolders } from '../../../shared/folders.js';

/**
 * Most record files (json, xml) one hand-over writes: few enough that the first orders are
 * acknowledged while later ones are written and the queue's lanes write side by side, enough
 * that a folder fsync covers many. Order-cycle benchmark, 2,000 orders: 500 a call 5.1 s, 100
 * 3.7 s, 64 3.4 s, 50 3.5-4.2 s, 32 4.4 s.
 */
export const RECORD_FILES_PER_CALL = 64;

/** One writer thread for the process, shared by every adapter opened in it (tests open many). */
const writer = createOutboxWriter();

export interface FileAdapterDeps {
  /** The adapters' wiring; file names never carry the time. */
  clock: Clock;
  /** Writes through this in this thread (a test's); else on the writer thread (outboxWriter.ts). */
  fs?: OutboxFs;
  /**
   * Built beside a daemon that writes to the outbox (a reload): the temp files there are its
   * writes under way, not a crash's leftovers; `prepare` removes those once it has stopped.
   */
  leaveTemps?: boolean;
}

const toOutcome = (placement: Placement): DeliveryOutcome =>
  placement.status === 'ok' ? { status: 'delivered' } : placement;

function byResource(batch: readonly OutboundRecord[]): Map<ResourceName, OutboundRecord[]> {
  const groups = new Map<ResourceName, OutboundRecord[]>();
  for (const item of batch) groups.set(item.resource, [...(groups.get(item.resource) ?? []), item]);
  return groups;
}

const recordKey = (item: OutboundRecord): string => `${item.resource}\u0000${item.id}`;

/**
 * The archival events among `records`, split into those to write now and those that wait for a
 * version of their record this call must retry (the version that archived it goes first). A
 * version refused for good holds nothing back: the ERP should still hear of the archival.
 */
function heldBack(
  records: readonly OutboundRecord[],
  results: ReadonlyMap<OutboundRecord, Placement>,
): { ready: OutboundRecord[]; waiting: [OutboundRecord, Placement][] } {
  const retries = [...results].filter(([, placement]) => placement.status === 'retry');
  const retried = new Map(retries.map(([item, placement]) => [recordKey(item), placement]));
  const events = records.filter((item) => item.archival !== undefined);
  const waiting = events.flatMap((item): [OutboundRecord, Placement][] => {
    const retry = retried.get(recordKey(item));
    return retry === undefined ? [] : [[item, retry]];
  });
  return { ready: events.filter((item) => !retried.has(recordKey(item))), waiting };
}

/**
 * One file per record, written side by side after all their companions. A record whose
 * companion cannot be placed waits (or is rejected) without its own file; one the format cannot
 * say (an openTRANS ORDER without lines) is rejected before anything of it is written.
 */
async function deliverEach(
  folder: Folder,
  items: readonly OutboundRecord[],
  options: FileAdapterOptions,
): Promise<Map<OutboundRecord, Placement>> {
  const refused = new Map<OutboundRecord, Placement>();
  const writable = new Map<OutboundRecord, OutboxFile>();
  for (const item of items) {
    const content = recordFile(item, options);
    if ('refused' in content) refused.set(item, { status: 'rejected', reason: content.refused });
    else writable.set(item, content.file);
  }
  const results = await placeCompanions(folder, [...writable.keys()], options.format);
  const written = [...writable].filter(([item]) => results.get(item)?.status === 'ok');
  const placements = await folder.place(written.map(([, file]) => file));
  written.forEach(([item], n) => results.set(item, placements[n] ?? OK));
  for (const [item, placement] of refused) results.set(item, placement);
  return results;
}

/**
 * One file for the batch. A record the ERP's layout cannot say is rejected and left out before
 * anything is written. Companions go first; if one must wait, the whole batch waits, so that no
 * file lacks a retried record; a record whose companion conflicts is left out (the same way on
 * every retry, so the file stays the same).
 */
async function deliverBatch(
  folder: Folder,
  resource: ResourceName,
  items: readonly OutboundRecord[],
  batch: number,
  options: FileAdapterOptions,
): Promise<Map<OutboundRecord, Placement>> {
  const render = (items: readonly OutboundRecord[]) =>
    batchFile(
      resource,
      items.map(({ record }) => record),
      batch,
      options,
    );
  const all = render(items);
  const writable = items.filter((_, n) => !all.refused.has(n));
  const results = await placeCompanions(folder, writable, undefined);
  items.forEach((item, n) => {
    const reason = all.refused.get(n);
    if (reason !== undefined) results.set(item, { status: 'rejected', reason });
  });
  const waiting = [...results.values()].find((p) => p.status === 'retry');
  const kept = writable.filter((item) => results.get(item)?.status === 'ok');
  if (waiting !== undefined || kept.length === 0) {
    for (const item of kept) results.set(item, waiting ?? OK);
    return results;
  }
  const file = kept.length === writable.length ? all.file : render(kept).file;
  const [placement = OK] = await folder.place([file]);
  for (const item of kept) results.set(item, placement);
  return results;
}

/**
 * Makes the outbox when missing and, unless `leaveTemps`, removes the temp files a crash left
 * in its folders.
 */
async function sweep(fs: OutboxFs, outbox: string, leaveTemps = false): Promise<void> {
  try {
    await makeFolders((path, options) => fs.mkdir(path, options), outbox);
    if (leaveTemps) return;
    for (const resource of RESOURCE_NAMES) await removeStaleTemps(fs, folderOf(outbox, resource));
    for (const folder of archivalFolders(outbox)) await removeStaleTemps(fs, folder);
  } catch (error) {
    throw new SetupError(`ERP outbox ${outbox} cannot be prepared: ${errorMessage(error)}`, [], {
      hint: 'create the folder and give the daemon write permission to it',
      cause: error,
    });
  }
}

/**
 * The file-drop ERP adapter. Opening it creates the outbox and removes temp files a crash left
 * behind; then `deliver` writes each record version (or each batch) once, atomically.
 */
export async function createFileAdapter(
  options: FileAdapterOptions,
  deps: FileAdapterDeps,
): Promise<ErpAdapter> {
  const fs = deps.fs ?? nodeOutboxFs;
  await sweep(fs, options.outbox, deps.leaveTemps);
  const batchFile = isBatchFormat(options.format);
  // Only batch files carry the number; a json or xml outbox (a file per record, possibly many)
  // is not read through for it.
  const highestBatch = batchFile ? await highestBatchIn(fs, options.outbox) : undefined;
  if (deps.fs === undefined) writer.start();
  const { doneMarker, fileMode } = options;
  const place = (dir: string, files: readonly OutboxFile[]) => {
    const request = { dir, doneMarker, fileMode, files };
    return deps.fs === undefined ? writer.place(request) : placeAll(deps.fs, request);
  };

  async function deliver(records: readonly OutboundRecord[], batch: number) {
    const results = new Map<OutboundRecord, Placement>();
    const versions = records.filter((item) => item.archival === undefined);
    for (const [resource, items] of byResource(versions)) {
      if (!isResourceName(resource)) {
        const reason = `${String(resource)} is not a platform resource; no outbox folder for it`;
        for (const item of items) results.set(item, { status: 'rejected', reason });
        continue;
      }
      const dir = folderOf(options.outbox, resource);
      const folder: Folder = { dir, place: (files) => place(dir, files) };
      const placed = batchFile
        ? await deliverBatch(folder, resource, items, batch, options)
        : await deliverEach(folder, items, options);
      for (const [item, placement] of placed) results.set(item, placement);
    }
    // Archival events after the versions, each its own JSON file (never in a batch file); one
    // whose record's version in this call did not get through waits with it.
    const events = heldBack(records, results);
    const placed = await placeArchivalEvents(options.outbox, events.ready, place);
    for (const [item, placement] of [...placed, ...events.waiting]) results.set(item, placement);
    return records.map((item) => toOutcome(results.get(item) ?? { status: 'ok' }));
  }

  // Every format takes records in batches (a batch file, or a file each written in one go).
  return {
    name: 'file',
    batches: true,
    ...(batchFile ? {} : { batchLimit: RECORD_FILES_PER_CALL }),
    deliver,
    ...(highestBatch === undefined ? {} : { highestBatch }),
    // A hidden file put into the outbox as a hand-over puts one, and removed.
    probe: () =>
      folderWritable(fs, options.outbox, 'readyz').catch((error: unknown) => {
        throw new Error(`the outbox ${errorMessage(error)}`, { cause: error });
      }),
    prepare: () => sweep(fs, options.outbox),
    close: () => Promise.resolve(),
  };
}
