import { goneReason, versionParts, type ResourceName } from '../contract/index.js';
import {
  getMirror,
  isReducedRecord,
  mirrorIdsOf,
  type MirrorRecord,
  type Store,
} from '../store/index.js';
import { queueArchival } from '../queue/index.js';
import type { PulledRecord } from './pullTypes.js';

/** The record leaving use, as a pull sees it: archived, Deleted, or vanished from its list. */

/**
 * Watches a pulled version for the record leaving use: archived (`archived`, an attachment's
 * `metadata.archived`) or an order Deleted, where the version before it (`before`, the mirror's)
 * was live. Answers what to do once the version is stored: queue the ERP's archival event when
 * the version became the mirror's (a late older version changes nothing). A record first seen
 * gone (the first pull of an archived list) gets none: the ERP never had it live.
 */
export function archivalWatch(
  store: Store,
  resource: ResourceName,
  pulled: PulledRecord,
  runId: number,
  before: MirrorRecord | undefined,
): (mirrored: boolean) => void {
  const reason = goneReason(resource, pulled.record);
  if (reason === undefined) return () => undefined;
  // A reduced record kept no body to tell; retention reduces only records already gone.
  const wasLive =
    before !== undefined && !isReducedRecord(before) && goneReason(resource, before) === undefined;
  return (mirrored) => {
    if (!mirrored || !wasLive) return;
    const { id, version } = pulled;
    const archivedAt = versionParts(version).stamp;
    const detectedAt = store.clock.now().toISOString();
    queueArchival(
      store,
      { event: 'archived', reason, resource, _id: id, version, archivedAt, detectedAt },
      runId,
    );
  };
}

/**
 * Queues an archival event (`vanished`) for each live mirrored record of `resource` that a
 * whole list no longer holds: its list leaves archived records out, with no filter for them,
 * so vanishing is how the platform archives it. Once per record version (queueArchival), so
 * the next night's list adds nothing. Not one of our own writes: such lists hold none (the
 * variants that list them offer no create), so absence cannot be loop suppression.
 */
export function reportVanished(
  store: Store,
  resource: ResourceName,
  listed: ReadonlySet<string>,
): number {
  const detectedAt = store.clock.now().toISOString();
  let count = 0;
  for (const id of mirrorIdsOf(store, resource).filter((known) => !listed.has(known))) {
    const entry = getMirror(store, resource, id);
    if (entry === undefined || isReducedRecord(entry.record)) continue;
    if (goneReason(resource, entry.record) !== undefined) continue;
    const event = {
      event: 'archived',
      reason: 'vanished',
      resource,
      _id: entry.id,
      version: entry.version,
      archivedAt: null,
      detectedAt,
    } as const;
    if (queueArchival(store, event)) count += 1;
  }
  return count;
}
