/**
 * Mechanism: the ERP side. The adapter interface (this file) and its adapters (outbound/), the
 * inbox that reads the ERP's messages (inbound/), what a message is (messages/), the file formats
 * (formats/) and the mapping language of the ERP's own layouts (mapping/).
 */
import type { GoneReason, ResourceName } from '../contract/index.js';

/**
 * The ERP is told that a record left use on the platform: once per archival, beside the record
 * version itself. Fixed when the archival is first seen and kept in the ledger, so every retry
 * sends the same bytes.
 */
export interface ArchivalEvent {
  event: 'archived';
  /** Its version says archived or (orders) Deleted, or a full list no longer held it. */
  reason: GoneReason | 'vanished';
  resource: ResourceName;
  _id: string;
  /** The version that showed it archived. */
  version: string;
  /** The platform's stamp of that version; null when the record vanished without one. */
  archivedAt: string | null;
  /** When the daemon saw it, by its own clock. */
  detectedAt: string;
}

/** One record version on its way to the ERP, already enriched with the ERP's own keys. */
export interface OutboundRecord {
  resource: ResourceName;
  /** The platform's `_id` (or composite id: RECORD_IDENTITY in src/contract). */
  id: string;
  /** `timestamp`/`updatedAt`, as the ledger keys it. */
  version: string;
  record: Record<string, unknown>;
  /** Binary companions: a document's PDF and XML, an attachment's file. */
  files?: ReadonlyArray<{ suffix: string; contentType: string; data: Uint8Array }>;
  /** Not a version but the news that the record was archived (`record` is this event too). */
  archival?: ArchivalEvent;
}

/** What became of one record handed to the adapter. */
export type DeliveryOutcome =
  | { status: 'delivered' }
  /** Try again later (ERP down, 5xx, time-out); nothing was lost. */
  | { status: 'retry'; reason: string; retryAfterMs?: number }
  /** The ERP refused the record for good; it is dead-lettered with the reason. */
  | { status: 'rejected'; reason: string; httpStatus?: number; body?: string };

/**
 * How records reach the ERP. `deliver` must be idempotent per (resource, id, version): the same
 * version handed over twice (after a crash) must not reach the ERP as two records. It resolves
 * only when the ERP has the records durably (file fsynced and renamed, 2xx received).
 */
export interface ErpAdapter {
  readonly name: 'file' | 'rest';
  /**
   * The ready records of a resource are handed over together (a batch file, or many files in
   * one go); false: one record per call, several calls side by side.
   */
  readonly batches: boolean;
  /**
   * Most records one call should take, when fewer than `sync.batchSize` serve better (a call's
   * records are acknowledged only once all are handed over).
   */
  readonly batchLimit?: number;
  /**
   * Hands records over, in order; one outcome per record. `batch` only grows, and records
   * handed over again after a crash come with the same number, so a batch file named by it is
   * written once and recognised when written again.
   */
  deliver(records: readonly OutboundRecord[], batch: number): Promise<DeliveryOutcome[]>;
  /** The highest batch number the outbox's file names hold; batches are numbered above it. */
  readonly highestBatch?: number;
  /** Resolves when the ERP can take records now (`/readyz`), the way deliveries go; else rejects. */
  probe(): Promise<void>;
  /**
   * Readies the ERP's side for a daemon that starts handing over, under the writer lock and
   * before its first hand-over: removes what a crash left (the file adapter's temp files). An
   * adapter built beside a running daemon (a reload) leaves that until then.
   */
  prepare?(): Promise<void>;
  close(): Promise<void>;
}

/** A validated message from the ERP, from a file or from POST /erp/<kind>. */
export interface InboxMessage {
  /** One of the push-back kinds the inbox was given (src/pushback/kinds/). */
  kind: string;
  source: 'file' | 'http';
  /**
   * Where it came: `<file>#<row>` (`#2,5` for merged rows, `#<ORDER_ID>` in openTRANS), a JSON
   * file's name, or the Idempotency-Key of a request.
   */
  name: string;
  /** The business key of what it is about (`patient:<customerId>`), as its kind gives it. */
  key: string;
  /** The SHA-256 of its canonical JSON, its stamp included (messages/identity.ts). */
  sha256: string;
  /** The message as checked, without its stamp. */
  body: Record<string, unknown>;
  /** The ERP's own stamp (`erpTimestamp`), an instant in UTC; absent: none was given. */
  stamp?: string;
}
