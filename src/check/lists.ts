import type { PlatformClient, PlatformRecord, Query } from '../platform/index.js';
import type { PullTarget } from '../pull/targets.js';

/** The query of a pull target, windowed from `since` (no window where its list takes none). */
export function targetQuery(target: PullTarget, since: Date): Query {
  return {
    ...(target.status === undefined ? {} : { status: target.status }),
    ...(target.timeParam === undefined ? {} : { [target.timeParam]: since }),
  };
}

/**
 * The first `max` records of a list, then the list is let go (its connection closed): a check
 * reads what it needs, never a whole list.
 */
export async function firstRecords(
  client: PlatformClient,
  target: PullTarget,
  query: Query,
  max: number,
): Promise<PlatformRecord[]> {
  const records: PlatformRecord[] = [];
  if (max <= 0) return records;
  for await (const record of client.list(target.resource, query)) {
    records.push(record);
    if (records.length >= max) break;
  }
  return records;
}

/** The label of a list request, as messages name it: `GET /singleOrder?status=created`. */
export function listLabel(client: PlatformClient, target: PullTarget): string {
  const path = client.contract.collectionPath(target.resource);
  return target.status === undefined ? `GET ${path}` : `GET ${path}?status=${target.status}`;
}

/** One target per resource, in the daemon's order: the first status filter of each. */
export function firstTargets(targets: readonly PullTarget[]): PullTarget[] {
  const seen = new Set<string>();
  return targets.filter((t) => !seen.has(t.resource) && seen.add(t.resource) !== undefined);
}
