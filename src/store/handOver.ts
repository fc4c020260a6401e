import type { MirrorRecord } from './mirror.js';
import { query } from './statements.js';
import type { Store } from './store.js';

/**
 * Reads for a hand-over to the ERP: the records of many versions and of what they reference, one
 * statement each per hand-over instead of one or two per record (each `get` through
 * better-sqlite3 costs about as much as reading the row).
 */

/** A record version: its resource, `_id` and version. */
export interface VersionKey {
  resource: string;
  id: string;
  version: string;
}

/** A record of the mirror: its resource and `_id`. */
export interface MirrorKeyOf {
  resource: string;
  id: string;
}

/**
 * Each version's record as pulled, in the order asked: the ledger's text, else the mirror's when
 * it holds that same version (an old ledger row did not keep it); undefined when neither has it.
 */
export function versionRecords(
  store: Store,
  versions: readonly VersionKey[],
): (Record<string, unknown> | undefined)[] {
  const found: (Record<string, unknown> | undefined)[] = versions.map(() => undefined);
  if (versions.length === 0) return found;
  const rows = query<{ keys: string }, { n: number; json: string | null }>(
    store.db,
    `SELECT k.key AS n,
       coalesce(l.json, CASE WHEN m.version = k.value ->> 2 THEN m.json END) AS json
     FROM json_each(@keys) AS k
     LEFT JOIN ledger AS l
       ON l.resource = k.value ->> 0 AND l._id = k.value ->> 1 AND l.version = k.value ->> 2
     LEFT JOIN mirror AS m ON m.resource = k.value ->> 0 AND m._id = k.value ->> 1`,
    { n: 'number', json: 'text?' },
  ).all({ keys: JSON.stringify(versions.map((v) => [v.resource, v.id, v.version])) });
  for (const { n, json } of rows) {
    if (json !== null) found[n] = JSON.parse(json) as Record<string, unknown>;
  }
  return found;
}

export const mirrorKey = (resource: string, id: string): string => `${resource}\u0000${id}`;

/** The latest mirrored records of many ids, by `mirrorKey`; ids not in the mirror left out. */
export function mirrorRecords(
  store: Store,
  keys: readonly MirrorKeyOf[],
): Map<string, MirrorRecord> {
  const found = new Map<string, MirrorRecord>();
  if (keys.length === 0) return found;
  const rows = query<{ keys: string }, { resource: string; _id: string; json: string }>(
    store.db,
    `SELECT m.resource, m._id, m.json FROM json_each(@keys) AS k
     JOIN mirror AS m ON m.resource = k.value ->> 0 AND m._id = k.value ->> 1`,
    { resource: 'text', _id: 'text', json: 'text' },
  ).all({ keys: JSON.stringify(keys.map((k) => [k.resource, k.id])) });
  for (const row of rows) {
    found.set(mirrorKey(row.resource, row._id), JSON.parse(row.json) as MirrorRecord);
  }
  return found;
}
