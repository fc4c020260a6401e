import type { ResourceName } from '../contract/index.js';
import type { OutboundRecord } from '../erp/adapter.js';
import { getMirror, isReducedRecord, type Store } from '../store/index.js';
import { enrich, type Reference } from './enrich.js';
import { liveMirror } from './outbound.js';
import { RESOURCES_WITH_FILES } from './references.js';

/** What the hand-over of a mirrored record would be, read from the database alone. */
export type MirroredHandOver =
  /** Enriched as the deliver stage enriches it; `withFiles`: files fetched then go with it. */
  | { found: 'record'; outbound: OutboundRecord; withFiles: boolean }
  | { found: 'none' }
  /** Retention or `forget` left only its ids, stamps and status, since `since`. */
  | { found: 'reduced'; version: string; since: string }
  /** Its references are not in the mirror: the hand-over fetches them first, or waits. */
  | { found: 'waiting'; version: string; missing: Reference[] };

/**
 * The latest mirrored version of a record as the deliver stage would hand it to the adapter:
 * enriched with the ERP's keys from the mirror by the same `enrich`. Reads only: a reference the
 * mirror lacks is named, not fetched, and a record's files are not fetched.
 */
export function mirroredHandOver(
  store: Store,
  resource: ResourceName,
  id: string,
): MirroredHandOver {
  const mirrored = getMirror(store, resource, id);
  if (mirrored === undefined) return { found: 'none' };
  const { version, record } = mirrored;
  if (isReducedRecord(record))
    return { found: 'reduced', version, since: String(record['_reduced']) };
  const enriched = enrich(resource, record, liveMirror(store));
  if (!enriched.ok) return { found: 'waiting', version, missing: enriched.missing };
  return {
    found: 'record',
    outbound: { resource, id, version, record: enriched.record },
    withFiles: RESOURCES_WITH_FILES.has(resource),
  };
}
