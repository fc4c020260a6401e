import { join } from 'node:path';
import { RESOURCE_NAMES } from '../../../contract/index.js';
import type { ArchivalEvent, OutboundRecord } from '../../adapter.js';
import { recordBaseName, safeSegment } from './names.js';
import type { Placement } from './placement.js';

/**
 * Archival events live in a tree of their own, `<outbox>/archived/<resource>/`, never beside the
 * record files: an ERP import that takes every `*.json` (or every `.done` marker) of a resource
 * folder would otherwise read an event as a record and overwrite the record with it. No resource
 * is named `archived`, so the folder cannot meet a resource's own.
 */
export const ARCHIVAL_FOLDER = 'archived';

export const archivalFolderOf = (outbox: string, resource: string): string =>
  join(outbox, ARCHIVAL_FOLDER, safeSegment(resource));

/** Every folder archival events may be written to (for the sweep of crash leftovers). */
export const archivalFolders = (outbox: string): string[] =>
  RESOURCE_NAMES.map((resource) => archivalFolderOf(outbox, resource));

/**
 * `<_id>_<version>.archived.json`: the name of the record file of the version that archived it
 * (the same escapes and `_<hash8>`), so the two are found together, and a suffix that says what
 * it is wherever the file is moved to.
 */
export const archivalFileName = (event: ArchivalEvent): string =>
  `${recordBaseName(event._id, event.version)}.archived.json`;

/**
 * JSON whatever `erp.file.format` is: one small fixed-shape message, the same bytes on every
 * retry (the event is fixed in the ledger when first seen), so a repeat finds the file identical.
 */
export const archivalContent = (event: ArchivalEvent): Buffer =>
  Buffer.from(`${JSON.stringify(event, null, 2)}\n`, 'utf8');

/** Places files into one folder, as the adapter's writer does (placeAll). */
export type PlaceIn = (
  dir: string,
  files: readonly { name: string; data: Uint8Array }[],
) => Promise<Placement[]>;

/** Writes the events among `items`, a folder per resource; the placement of each, by item. */
export async function placeArchivalEvents(
  outbox: string,
  items: readonly OutboundRecord[],
  place: PlaceIn,
): Promise<Map<OutboundRecord, Placement>> {
  const results = new Map<OutboundRecord, Placement>();
  const byFolder = new Map<string, { item: OutboundRecord; event: ArchivalEvent }[]>();
  for (const item of items) {
    if (item.archival === undefined) continue;
    const dir = archivalFolderOf(outbox, item.resource);
    byFolder.set(dir, [...(byFolder.get(dir) ?? []), { item, event: item.archival }]);
  }
  for (const [dir, events] of byFolder) {
    const files = events.map(({ event }) => ({
      name: archivalFileName(event),
      data: archivalContent(event),
    }));
    const placements = await place(dir, files);
    events.forEach(({ item }, n) => {
      const placement = placements[n];
      if (placement !== undefined) results.set(item, placement);
    });
  }
  return results;
}
