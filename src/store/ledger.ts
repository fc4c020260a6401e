import { hash } from 'node:crypto';
import { entryOf, plainQuery, query, type RowOf, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

/**
 * Acknowledgement of an order or care arrangement on the platform: 'none' where none is due,
 * 'queued' once its job was queued with the delivery. Whether it was made is the job's state:
 * the queue is the one place that says what is still to do.
 */
export type AckState = 'none' | 'queued';

export interface LedgerEntry {
  /** Order in which the versions were first seen. */
  seq: number;
  resource: string;
  id: string;
  version: string;
  runId: number | undefined;
  seenAt: string;
  deliveredAt: string | undefined;
  ackState: AckState;
  /** SHA-256 (hex) of the record's text as pulled; undefined for versions of old builds. */
  sha256: string | undefined;
  /**
   * The record's text as pulled, kept here only while the mirror does not hold it and a
   * delivery of it may still run (the mirror keeps the latest version's; see
   * migrations/06-recordsOnce.ts).
   */
  json: string | undefined;
}

const columns = `seq, resource, _id AS id, version, run_id AS runId, seen_at AS seenAt,
  delivered_at AS deliveredAt, ack_state AS ackState, sha256, json`;

/** The ledger's fingerprint of a record's text. */
export const sha256Of = (json: string): string => hash('sha256', json, 'hex');

/** What the ledger notes of a version besides its identity. */
export interface VersionSeen {
  runId?: number | undefined;
  /** The record's text, kept in the ledger (and hashed); leave it out when the mirror holds it. */
  json?: string | undefined;
  /** The record text's fingerprint, when `json` is left out. */
  sha256?: string | undefined;
  /** What a pulled version changed (see VersionChanges); left out where no pull compared it. */
  changed?: VersionChanges | undefined;
}

/**
 * What a pulled version changed against the record the mirror held before it: the names of the
 * fields (contract/changedFields.ts), never their values; 'new' for a record first seen.
 */
export type VersionChanges = readonly string[] | 'new';

/**
 * Notes that a record version was seen. True when it is new; a repeat (the overlap window, a
 * pull run again after a crash) changes nothing and returns false. The ledger records versions
 * and when each was delivered; the hand-over itself is a queue job (`deliver.<resource>`).
 */
export function recordVersion(
  store: Store,
  resource: string,
  id: string,
  version: string,
  seen: VersionSeen = {},
): boolean {
  const { json } = seen;
  return (
    statement<Record<string, string | number | null>>(
      store.db,
      `INSERT INTO ledger (resource, _id, version, run_id, seen_at, sha256, json, changed)
       VALUES (@resource, @id, @version, @runId, @now, @sha256, @json, @changed)
       ON CONFLICT (resource, _id, version) DO NOTHING`,
    ).run({
      resource,
      id,
      version,
      runId: seen.runId ?? null,
      now: storedNow(store),
      sha256: seen.sha256 ?? (json === undefined ? null : sha256Of(json)),
      json: json ?? null,
      changed: seen.changed === undefined ? null : JSON.stringify(seen.changed),
    }).changes === 1
  );
}

/**
 * Which of these versions of a resource the ledger holds with the same content, in their order:
 * one statement for them all (a read outside a transaction costs more than the index look-up
 * it makes). A version is held when its stamp was seen with this text (or by a build that kept
 * no hash), or this text was seen as a second content under the stamp (`sameStampVersion`).
 */
export function knownVersions(
  store: Store,
  resource: string,
  versions: readonly { id: string; version: string; sha256: string }[],
): boolean[] {
  if (versions.length === 0) return [];
  const rows = query<Record<string, string>, { at: number }>(
    store.db,
    `SELECT asked.key AS at FROM json_each(@asked) AS asked
     WHERE EXISTS (SELECT 1 FROM ledger WHERE resource = @resource AND _id = asked.value ->> 0
       AND (version = asked.value ->> 1 AND coalesce(sha256 = asked.value ->> 2, 1)
         OR version = (asked.value ->> 1) || '_' || substr(asked.value ->> 2, 1, 8)))`,
    { at: 'number' },
  ).all({
    resource,
    asked: JSON.stringify(versions.map((v) => [v.id, v.version, v.sha256])),
  });
  const known = versions.map(() => false);
  for (const { at } of rows) known[at] = true;
  return known;
}

/**
 * Sets `column` of one version's row to `value`; `whileUnset`: only while it is NULL, so a
 * first value stays. Whether it changed the row.
 */
function setColumn(
  store: Store,
  key: { resource: string; id: string; version: string },
  column: 'json' | 'delivered_at' | 'ack_state',
  value: string,
  whileUnset = false,
): boolean {
  const unset = whileUnset ? ` AND ${column} IS NULL` : '';
  return (
    statement<Record<string, string>>(
      store.db,
      `UPDATE ledger SET ${column} = @value
       WHERE resource = @resource AND _id = @id AND version = @version${unset}`,
    ).run({ ...key, value }).changes === 1
  );
}

/**
 * Keeps a version's record text in the ledger after all, when the mirror did not take it (it
 * holds a newer version). Only a version noted without its text is changed.
 */
export function keepVersionRecord(
  store: Store,
  resource: string,
  id: string,
  version: string,
  json: string,
): void {
  setColumn(store, { resource, id, version }, 'json', json, true);
}

/**
 * Marks a version as handed to the ERP. False when it was already marked (or is unknown), so
 * the first delivery time stays.
 */
export function markDelivered(
  store: Store,
  resource: string,
  id: string,
  version: string,
): boolean {
  return setColumn(store, { resource, id, version }, 'delivered_at', storedNow(store), true);
}

export function setAckState(
  store: Store,
  resource: string,
  id: string,
  version: string,
  state: AckState,
): boolean {
  return setColumn(store, { resource, id, version }, 'ack_state', state);
}

export function getLedgerEntry(
  store: Store,
  resource: string,
  id: string,
  version: string,
): LedgerEntry | undefined {
  const row = query<Record<string, string>, RowOf<LedgerEntry>>(
    store.db,
    `SELECT ${columns} FROM ledger WHERE resource = @resource AND _id = @id AND version = @version`,
    {
      seq: 'number',
      resource: 'text',
      id: 'text',
      version: 'text',
      runId: 'number?',
      seenAt: 'text',
      deliveredAt: 'text?',
      ackState: 'text',
      sha256: 'text?',
      json: 'text?',
    },
  ).get({ resource, id, version });
  return row === undefined ? undefined : entryOf<LedgerEntry>(row);
}

/** Whether the ledger holds any version of the record: the ERP has it from a pull. */
export function ledgerHolds(store: Store, resource: string, id: string): boolean {
  return (
    query<Record<string, string>, { one: number }>(
      store.db,
      'SELECT 1 AS one FROM ledger WHERE resource = @resource AND _id = @id LIMIT 1',
      { one: 'number' },
    ).get({ resource, id }) !== undefined
  );
}

/** How many versions wait to be handed to the ERP (for `status` and `/metrics`). */
export function countUndelivered(store: Store): number {
  return (
    plainQuery<{ n: number }>(
      store.db,
      'SELECT count(*) AS n FROM ledger WHERE delivered_at IS NULL',
      { n: 'number' },
    ).get()?.n ?? 0
  );
}
