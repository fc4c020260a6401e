import { RESOURCE_NAMES } from '../contract/index.js';
import {
  MIRROR_KEY_COLUMNS,
  MIRROR_KEY_INDEXES,
  MIRROR_KEYS,
  MIRROR_KEYS_COLUMNS,
  subjectOfRow,
  type MirrorKeyName,
  type Store,
  type MirrorKeys,
} from '../store/index.js';
import { query } from '../store/statements.js';
import { distinctMatches, matched, type KeyMatch } from './keys.js';
import { MIRROR_KEY_NAMES, subjectsOfMessage } from './search.js';

/**
 * The records whose keys start with a prefix, for a search that named none exactly: each look
 * a range of an index (the mirror's keys, an order's erpOrderNumber, the ERP's file and request
 * names), so a search costs a few index steps however large the database is.
 */

type Row = MirrorKeys & { value: string };

/** The end of the range of texts that start with `prefix` (all of ours are below \uffff). */
const rangeOf = (prefix: string) => ({ prefix, end: `${prefix}\uffff` });

function mirrorStarting(store: Store, name: MirrorKeyName, prefix: string, limit: number) {
  const column = MIRROR_KEY_COLUMNS[name];
  return query<Record<string, string | number>, Row>(
    store.db,
    `SELECT ${MIRROR_KEYS}, ${column} AS value FROM mirror INDEXED BY ${MIRROR_KEY_INDEXES[name]}
     WHERE resource IN (SELECT value FROM json_each(@resources))
       AND ${column} >= @prefix AND ${column} < @end AND ${column} IS NOT NULL
     ORDER BY ${column}, resource LIMIT @limit`,
    { ...MIRROR_KEYS_COLUMNS, value: 'text' },
  )
    .all({ ...rangeOf(prefix), resources: JSON.stringify(RESOURCE_NAMES), limit })
    .map((row) => matched(name, row.value)(subjectOfRow(row)));
}

function erpOrderNumbersStarting(store: Store, prefix: string, limit: number): KeyMatch[] {
  return query<Record<string, string | number>, Row>(
    store.db,
    `SELECT ${MIRROR_KEYS}, json ->> '$.erpOrderNumber' AS value
     FROM mirror INDEXED BY mirror_erp_order_number
     WHERE resource IN ('singleOrder', 'directOrder')
       AND json ->> '$.erpOrderNumber' >= @prefix AND json ->> '$.erpOrderNumber' < @end
     ORDER BY json ->> '$.erpOrderNumber' LIMIT @limit`,
    { ...MIRROR_KEYS_COLUMNS, value: 'text' },
  )
    .all({ ...rangeOf(prefix), limit })
    .map((row) => matched('erpOrderNumber', row.value)(subjectOfRow(row)));
}

function messagesStarting(store: Store, prefix: string, limit: number): KeyMatch[] {
  const names = query<Record<string, string | number>, { name: string }>(
    store.db,
    `SELECT DISTINCT name FROM inbox_messages INDEXED BY inbox_messages_name
     WHERE name >= @prefix AND name < @end ORDER BY name LIMIT @limit`,
    { name: 'text' },
  ).all({ ...rangeOf(prefix), limit });
  return names.flatMap((row) => subjectsOfMessage(store, row.name));
}

/** The shortest prefix searched for: shorter ones match nearly everything. */
export const MIN_PREFIX_CHARS = 3;

/**
 * Up to `limit` records whose `_id`, ERP keys, erpOrderNumber or ERP message names start with
 * `prefix`, ordered by kind of key and then by value; `more` when there may be others.
 */
export function prefixMatches(
  store: Store,
  prefix: string,
  limit: number,
): { matches: KeyMatch[]; more: boolean } {
  if ([...prefix].length < MIN_PREFIX_CHARS) return { matches: [], more: false };
  const looks = [
    ...MIRROR_KEY_NAMES.map((name) => (left: number) => mirrorStarting(store, name, prefix, left)),
    (left: number) => erpOrderNumbersStarting(store, prefix, left),
    (left: number) => messagesStarting(store, prefix, left),
  ];
  let matches: KeyMatch[] = [];
  for (const look of looks) {
    // One more than asked: whether there are more is told by it.
    matches = distinctMatches([...matches, ...look(limit + 1 - matches.length)]);
    if (matches.length > limit) return { matches: matches.slice(0, limit), more: true };
  }
  return { matches, more: false };
}
