import type { OutboundRecord } from '../../adapter.js';
import { recordBaseName, safeSuffix } from './names.js';
import { isOk, OK, type OutboxFile, type Placement } from './placement.js';

/** One resource folder of the outbox and how files are put into it (placeAll). */
export interface Folder {
  dir: string;
  place(files: readonly OutboxFile[]): Promise<Placement[]>;
}

/**
 * The binary companions of the records, beside them as `<_id>_<version>.<suffix>` (`.file.<suffix>`
 * where the record file has that extension), all placed before any record file is written. Per
 * record: ok, or its first companion's failure.
 */
export async function placeCompanions(
  folder: Folder,
  items: readonly OutboundRecord[],
  recordExtension: string | undefined,
): Promise<Map<OutboundRecord, Placement>> {
  const files = items.flatMap((item) => {
    const base = recordBaseName(item.id, item.version);
    return (item.files ?? []).map((file) => {
      const suffix = safeSuffix(file.suffix);
      const name = suffix === recordExtension ? `${base}.file.${suffix}` : `${base}.${suffix}`;
      return { item, name, data: file.data };
    });
  });
  const results = new Map<OutboundRecord, Placement>(items.map((item) => [item, OK]));
  const placements = await folder.place(files.map(({ name, data }) => ({ name, data })));
  files.forEach(({ item }, n) => {
    if (isOk(results.get(item))) results.set(item, placements[n] ?? OK);
  });
  return results;
}
