import { join } from 'node:path';
import { RESOURCE_NAMES } from '../../../contract/index.js';
import type { ArchivalEvent, OutboundRecord } from '../../adapter.js';
import { recordBaseName, safeSegment } from './names.js';
import type { OutboxFile, Placement } from './placement.js';

/**
 * Archival events live in a tree of their own, `<outbox>/archived/<resource>/`: an ERP import
 * that takes every `*.json` of a resource folder would read an event as a record and overwrite
 * the record with it. No resource is named `archived`.
 */
export const archivalFolderOf = (outbox: string, resource: string): string =>
  join(outbox, 'archived', safeSegment(resource));

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
 * Writes the events among `items` as JSON whatever `erp.file.format` is (the same bytes on every
 * retry, so a repeat finds the file identical), a folder per resource; the placement of each.
 */
export async function placeArchivalEvents(
  outbox: string,
  items: readonly OutboundRecord[],
  place: (dir: string, files: readonly OutboxFile[]) => Promise<Placement[]>,
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
      data: Buffer.from(`${JSON.stringify(event, null, 2)}\n`, 'utf8'),
    }));
    const placements = await place(dir, files);
    events.forEach(({ item }, n) => {
      const placement = placements[n];
      if (placement !== undefined) results.set(item, placement);
    });
  }
  return results;
}
