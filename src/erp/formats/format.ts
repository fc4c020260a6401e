/**
 * What reading one inbox file takes and gives, apart from handle.ts, which claims, hands over
 * and moves the file: mappedFile.ts reads the ERP's own layouts for handle.ts and answers in
 * these words, so neither file needs to import the other for them.
 */
import type { InboxMessage } from '../adapter.js';
import type { DroppedFields } from '../messages/droppedFields.js';
import type { InboxKinds } from '../messages/kinds.js';
import type { OrderReferences } from '../messages/orders.js';
import type { InboxMappings } from '../messages/layouts.js';
import type { OpenTransOptions } from './openTrans/answer.js';
import type { InboxOptions } from '../inbound/options.js';
import type { Problem } from '../messages/problems.js';

/** What reading a file takes: the inbox's options and kinds, and openTRANS's lookups. */
export interface ReadContext {
  options: InboxOptions;
  kinds: InboxKinds;
  /** Told of the unknown fields left out with `unknownFields: drop`. */
  dropped?: DroppedFields;
  /** How openTRANS answers find their orders and tracking links. */
  openTrans?: OpenTransOptions;
  /** How each kind's CSV and XML files are read: `erp.file.inboxMapping`, else its default. */
  mappings?: InboxMappings;
  /** How a mapped order status row finds its order (by `_id` also openTrans's lookup). */
  orders?: OrderReferences;
}

/** A file's messages as the inbox reads them, or why it refuses the file. */
export type FileMessages =
  | { ok: true; messages: InboxMessage[]; badRows: Problem[]; notes?: string[] }
  | { ok: false; reason: string; problems: Problem[] };
