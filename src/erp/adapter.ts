/**
 * Mechanism: the ERP side. The adapter interface (this file), the file drop and REST adapters
 * (file/, rest/) and the inbox that reads the ERP's answers (inbox/), told the kinds as data.
 */
import type { GoneReason, ResourceName } from '../contract/index.js';

/**
 * Why an archival event was handed over: the record's version says archived or (orders)
 * Deleted, or a full list of the reconciliation no longer held it ("vanished").
 */
export type ArchivalReason = GoneReason | 'vanished';

/**
 * The ERP is told that a record left use on the platform: once per archival, beside the record
 * version itself (which still goes out as any version does). Plain data, the same bytes on every
 * retry: it is fixed when the archival is first seen and kept in the ledger.
 */
export interface ArchivalEvent {
  event: 'archived';
  reason: ArchivalReason;
  resource: ResourceName;
  _id: string;
  /** The version that showed it archived, as the record's own file and key name it. */
  version: string;
  /** The platform's stamp of that version; null when the record vanished without one. */
  archivedAt: string | null;
  /** When the daemon saw it (its own clock). */
  detectedAt: string;
}

/** One record version on its way to the ERP, already enriched with the ERP's own keys. */
export interface OutboundRecord {
  resource: ResourceName;
  /** The platform's `_id` (or composite id, see RECORD_IDENTITY in src/contract). */
  id: string;
  /** The record's version (`timestamp`/`updatedAt`), as the ledger keys it. */
  version: string;
  record: Record<string, unknown>;
  /** Binary companions of a record, e.g. a document's PDF and XML, or an attachment's file. */
  files?: ReadonlyArray<{ suffix: string; contentType: string; data: Uint8Array }>;
  /**
   * Set when this hand-over is not a record version but the news that the record was archived
   * (then `record` is this event too). Adapters put it where the ERP looks for such events.
   */
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
   * True when the records of one resource are best handed over together (one batch file for
   * ndjson and csv, many files in one go for json and xml); the queue then gives `deliver` the
   * ready records of a resource at once. False: one record per call, several calls side by side.
   */
  readonly batches: boolean;
  /**
   * Most records one call should take, when fewer than `sync.batchSize` serve better: a call's
   * records are acknowledged only once all of them are handed over, and smaller calls run side
   * by side. Undefined: up to `sync.batchSize` (one batch file holds that many).
   */
  readonly batchLimit?: number;
  /**
   * Hands records over, in order; one outcome per record. `batch` numbers the hand-over: it
   * only grows, and records handed over again after a crash come with the same number, so a
   * batch file named by it is written once and recognised when written again.
   */
  deliver(records: readonly OutboundRecord[], batch: number): Promise<DeliveryOutcome[]>;
  /**
   * The highest batch number the ERP's side already holds (file names in the outbox), read when
   * the adapter opened; batches are numbered above it. Undefined where names carry no number.
   */
  readonly highestBatch?: number;
  /**
   * Whether the ERP can take records now, short of handing one over (`/readyz`): resolves when
   * it can, rejects with why not. Goes the way deliveries go (the same folder, the same agent).
   */
  probe(): Promise<void>;
  close(): Promise<void>;
}

/** A validated message from the ERP, from a file or from POST /erp/<kind>. */
export interface InboxMessage {
  /** One of the push-back kinds the inbox was given (src/pushback/kinds/). */
  kind: string;
  source: 'file' | 'http';
  /**
   * Where it came: `<file>#<row>` (`#2,5` for rows merged into one message, `#<ORDER_ID>` in
   * openTRANS), a JSON file's name, or the Idempotency-Key of a request.
   */
  name: string;
  /**
   * The business key of what it is about (`singleOrder:<id>`, `patient:<customerId>` …), as
   * the kind's descriptor gives it: with the kind and the content, what the message is.
   */
  key: string;
  /** What it says: the SHA-256 of its canonical JSON, its stamp included (inbox/identity.ts). */
  sha256: string;
  /** The message as checked, without its stamp. */
  body: Record<string, unknown>;
  /** The ERP's own stamp (`erpTimestamp`), an instant in UTC; absent: none was given. */
  stamp?: string;
}
