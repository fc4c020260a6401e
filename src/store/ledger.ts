import { plainStatement, statement } from './statements.js';
import type { Store } from './store.js';
import { storedNow } from './store.js';

/**
 * Acknowledgement of an order or care arrangement on the platform: 'none' where none is due,
 * 'pending' once delivered to the ERP, 'queued' when the status change is in the queue, 'done'.
 */
export type AckState = 'none' | 'pending' | 'queued' | 'done';

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
  /** The record of this version as pulled. */
  json: string | undefined;
  /** References this version waits for before it may be delivered. */
  waitingFor: string | undefined;
  /** Failed hand-overs to the ERP so far, and when the next may be tried. */
  deliveryAttempts: number;
  nextDeliveryAt: string | undefined;
  /** Why the ERP refused this version for good; it is not sent again until replayed. */
  rejection: string | undefined;
}

interface LedgerRow {
  seq: number;
  resource: string;
  _id: string;
  version: string;
  run_id: number | null;
  seen_at: string;
  delivered_at: string | null;
  ack_state: AckState;
  json: string | null;
  waiting_for: string | null;
  delivery_attempts: number;
  next_delivery_at: string | null;
  rejection: string | null;
}

const columns = `seq, resource, _id, version, run_id, seen_at, delivered_at, ack_state, json,
  waiting_for, delivery_attempts, next_delivery_at, rejection`;

/**
 * Notes that a record version was seen. True when it is new; a repeat (the overlap window, a
 * pull run again after a crash) changes nothing and returns false.
 */
export function recordVersion(
  store: Store,
  resource: string,
  id: string,
  version: string,
  runId?: number,
  json?: string,
): boolean {
  return (
    statement<Record<string, string | number | null>>(
      store.db,
      `INSERT INTO ledger (resource, _id, version, run_id, seen_at, json)
       VALUES (@resource, @id, @version, @runId, @now, @json)
       ON CONFLICT (resource, _id, version) DO NOTHING`,
    ).run({
      resource,
      id,
      version,
      runId: runId ?? null,
      now: storedNow(store),
      json: json ?? null,
    }).changes === 1
  );
}

/** Notes what a version waits for before delivery (undefined: it waits no more). */
export function setWaitingFor(
  store: Store,
  resource: string,
  id: string,
  version: string,
  waitingFor: string | undefined,
): void {
  statement<Record<string, string | null>>(
    store.db,
    `UPDATE ledger SET waiting_for = @waitingFor
     WHERE resource = @resource AND _id = @id AND version = @version`,
  ).run({ resource, id, version, waitingFor: waitingFor ?? null });
}

/** Versions held back because a reference is missing, for `status`. */
export function waitingVersions(store: Store, limit: number): LedgerEntry[] {
  return statement<{ limit: number }, LedgerRow>(
    store.db,
    `SELECT ${columns} FROM ledger
     WHERE delivered_at IS NULL AND waiting_for IS NOT NULL ORDER BY seq LIMIT @limit`,
  )
    .all({ limit })
    .map(toEntry);
}

/** Versions not yet handed to the ERP, in the order they were seen (so per entity in order). */
export function undelivered(store: Store, limit: number): LedgerEntry[] {
  return statement<{ limit: number }, LedgerRow>(
    store.db,
    `SELECT ${columns} FROM ledger WHERE delivered_at IS NULL ORDER BY seq LIMIT @limit`,
  )
    .all({ limit })
    .map(toEntry);
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
  return (
    statement<Record<string, string>>(
      store.db,
      `UPDATE ledger SET delivered_at = @now
       WHERE resource = @resource AND _id = @id AND version = @version AND delivered_at IS NULL`,
    ).run({ resource, id, version, now: storedNow(store) }).changes === 1
  );
}

export function setAckState(
  store: Store,
  resource: string,
  id: string,
  version: string,
  state: AckState,
): boolean {
  return (
    statement<Record<string, string>>(
      store.db,
      `UPDATE ledger SET ack_state = @state
       WHERE resource = @resource AND _id = @id AND version = @version`,
    ).run({ resource, id, version, state }).changes === 1
  );
}

/** Delivered versions whose acknowledgement is due but not yet queued, oldest first. */
export function awaitingAcknowledgement(store: Store, limit: number): LedgerEntry[] {
  return statement<{ limit: number }, LedgerRow>(
    store.db,
    `SELECT ${columns} FROM ledger WHERE ack_state = 'pending' ORDER BY seq LIMIT @limit`,
  )
    .all({ limit })
    .map(toEntry);
}

export function getLedgerEntry(
  store: Store,
  resource: string,
  id: string,
  version: string,
): LedgerEntry | undefined {
  const row = statement<Record<string, string>, LedgerRow>(
    store.db,
    `SELECT ${columns} FROM ledger WHERE resource = @resource AND _id = @id AND version = @version`,
  ).get({ resource, id, version });
  return row === undefined ? undefined : toEntry(row);
}

function toEntry(row: LedgerRow): LedgerEntry {
  return {
    seq: row.seq,
    resource: row.resource,
    id: row._id,
    version: row.version,
    runId: row.run_id ?? undefined,
    seenAt: row.seen_at,
    deliveredAt: row.delivered_at ?? undefined,
    ackState: row.ack_state,
    json: row.json ?? undefined,
    waitingFor: row.waiting_for ?? undefined,
    deliveryAttempts: row.delivery_attempts,
    nextDeliveryAt: row.next_delivery_at ?? undefined,
    rejection: row.rejection ?? undefined,
  };
}

/** How many versions wait to be handed to the ERP (for `status` and `/metrics`). */
export function countUndelivered(store: Store): number {
  return (
    plainStatement<{ n: number }>(
      store.db,
      'SELECT count(*) AS n FROM ledger WHERE delivered_at IS NULL',
    ).get()?.n ?? 0
  );
}

/** A hand-over failed and may pass: counts it and sets when to try next. Returns the count. */
export function postponeDelivery(
  store: Store,
  entry: { resource: string; id: string; version: string },
  nextAt: string,
): number {
  const row = statement<Record<string, string>, { attempts: number }>(
    store.db,
    `UPDATE ledger SET delivery_attempts = delivery_attempts + 1, next_delivery_at = @nextAt
     WHERE resource = @resource AND _id = @id AND version = @version
     RETURNING delivery_attempts AS attempts`,
  ).get({ ...entry, nextAt });
  return row?.attempts ?? 0;
}

/** The ERP refused a version for good (or it failed too often): kept, with the reason. */
export function rejectDelivery(
  store: Store,
  entry: { resource: string; id: string; version: string },
  reason: string,
): void {
  statement<Record<string, string>>(
    store.db,
    `UPDATE ledger SET rejection = @reason
     WHERE resource = @resource AND _id = @id AND version = @version`,
  ).run({ ...entry, reason });
}

/** An operator's replay: the version is handed to the ERP again at the next round. */
export function releaseDelivery(
  store: Store,
  entry: { resource: string; id: string; version: string },
): boolean {
  return (
    statement<Record<string, string>>(
      store.db,
      `UPDATE ledger SET rejection = NULL, delivery_attempts = 0, next_delivery_at = NULL
       WHERE resource = @resource AND _id = @id AND version = @version AND delivered_at IS NULL`,
    ).run(entry).changes === 1
  );
}

/**
 * An operator's redelivery of a version the ERP already has (or lost): it counts as not yet
 * handed over, with no tries and no refusal, so the next delivery round sends it again. A
 * version the ledger does not know (a record fetched as a reference) is added. `json` fills in
 * the record where the ledger row predates keeping it.
 */
export function redeliverVersion(
  store: Store,
  entry: { resource: string; id: string; version: string; json: string },
): void {
  recordVersion(store, entry.resource, entry.id, entry.version, undefined, entry.json);
  statement<Record<string, string>>(
    store.db,
    `UPDATE ledger SET delivered_at = NULL, rejection = NULL, waiting_for = NULL,
       delivery_attempts = 0, next_delivery_at = NULL, json = coalesce(json, @json)
     WHERE resource = @resource AND _id = @id AND version = @version`,
  ).run(entry);
}

/** Versions the ERP refused, for `status`. */
export function rejectedVersions(store: Store, limit: number): LedgerEntry[] {
  return statement<{ limit: number }, LedgerRow>(
    store.db,
    `SELECT ${columns} FROM ledger
     WHERE delivered_at IS NULL AND rejection IS NOT NULL ORDER BY seq LIMIT @limit`,
  )
    .all({ limit })
    .map(toEntry);
}
