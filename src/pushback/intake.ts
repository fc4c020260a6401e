import { randomUUID } from 'node:crypto';
import type { InboxMessage } from '../erp/adapter.js';
import type { Config } from '../config/index.js';
import { fileModeOf } from '../erp/outbound/file/index.js';
import { type CountInbound, type InboxOptions, type Taken } from '../erp/inbound/index.js';
import {
  DEFAULT_INBOUND_RULES,
  inboxMessage,
  parseInboxBody,
  type InboundRules,
  type InboxKinds,
  type KnownOrder,
  type OrderLookup,
} from '../erp/messages/index.js';
import { messageLabel, type Logger } from '../log/index.js';
import { enqueue } from '../queue/index.js';
import type { PushBackKindName } from './kinds/index.js';
import { jobFromInbox } from './registry.js';
import { withoutUndefined } from '../shared/objects.js';
import {
  findMirrorBy,
  getMirror,
  insertInboxMessage,
  overtakenText,
  settleInboxMessage,
  transaction,
  type MessageNaming,
  type Overtaking,
  type Store,
} from '../store/index.js';

/** What the endpoint answers for a message the ERP posted (`POST /erp/<kind>`). */
export type InboundResult =
  | { status: 'accepted' | 'repeat'; id: number | string }
  | { status: 'invalid'; problems: string[] }
  /** The Idempotency-Key was used before for a message with another body. */
  | { status: 'conflict'; id: string }
  /** An older message than the last one handled for its entity (store/inbox.ts says why). */
  | { status: 'overtaken'; id: string; reason: string };

/**
 * Takes a validated message from the ERP into SQLite and queues its job, in one transaction:
 * once this returns, the message is durable and the file may move to the archive (or the
 * endpoint may answer 202). The same message again is recognised and not queued twice; an older
 * one after a newer one of its entity is `overtaken` and not queued (store/inbox.ts); an
 * Idempotency-Key used before for another body is a `conflict` and not kept. Logs name the
 * message as `messageName`: a file name or key, which the personal `name` field would hide.
 */
export function inboxAcceptor(store: Store, logger: Logger) {
  return (message: InboxMessage): MessageKept =>
    transaction(store, () => keepLogged(store, message, logger));
}

/** The file inbox's hand-off: the messages of one batch of a file in one transaction. */
export function inboxBatchAcceptor(store: Store, logger: Logger) {
  return (messages: readonly InboxMessage[]): Taken[] =>
    transaction(store, () => messages.map((message) => keepLogged(store, message, logger).outcome));
}

/** A message as a log line names it: a file's by its label, a request's key as it is. */
const labelled: MessageNaming = (name, source) => (source === 'http' ? name : messageLabel(name));

/** Keeps a message (keepMessage) and logs what became of it. */
function keepLogged(store: Store, message: InboxMessage, logger: Logger): MessageKept {
  const kept = keepMessage(store, message, logger);
  const about = {
    kind: message.kind,
    source: message.source,
    key: message.key,
    messageName: message.name,
    messageId: kept.messageId,
  };
  switch (kept.outcome) {
    case 'accepted':
      logger.info({ ...about, jobId: kept.jobId }, 'inbox message queued');
      break;
    case 'conflict':
      logger.warn(about, 'inbox message refused: its key was used before for another body');
      break;
    case 'overtaken':
      logger.warn(
        { ...about, reason: overtakenText(kept.overtaking, labelled) },
        `inbox: ${message.kind} ${message.name} about ${message.key} refused as ${overtakenText(kept.overtaking, labelled)}`,
      );
      break;
    case 'repeat':
      logger.info(about, 'inbox message seen before; not queued again');
  }
  return kept;
}

/** What became of a message handed to keepMessage; `jobId` is the job it queued. */
export type MessageKept =
  | { outcome: 'accepted'; messageId: number; jobId: number }
  | { outcome: 'repeat' | 'conflict'; messageId: number }
  | { outcome: 'overtaken'; messageId: number; overtaking: Overtaking };

/**
 * Keeps a message and queues its job, in the caller's transaction: the inbox's and the
 * endpoint's hand-off (inboxAcceptor), and an operator's replay (replay.ts, `replay`).
 */
export function keepMessage(
  store: Store,
  message: InboxMessage,
  logger?: Logger,
  replay = false,
): MessageKept {
  const kept = insertInboxMessage(
    store,
    {
      kind: message.kind,
      source: message.source,
      name: message.name,
      sha256: message.sha256,
      body: JSON.stringify(message.body),
      entity: message.key,
      ...(message.stamp === undefined ? {} : { stamp: message.stamp }),
    },
    { replay },
  );
  if (kept.outcome === 'overtaken') {
    return { outcome: 'overtaken', messageId: kept.id, overtaking: kept.overtaking };
  }
  if (kept.outcome !== 'new') return { outcome: kept.outcome, messageId: kept.id };
  const job = enqueue(store, jobFromInbox(message, store), logger);
  settleInboxMessage(store, kept.id, 'done');
  return { outcome: 'accepted', messageId: kept.id, jobId: job.id };
}

/**
 * POST /erp/<kind>: the same validation as the file inbox (`rules`: `inbound` in the config),
 * then the same hand-off. The body is known by its meaning (canonical JSON), so a client that
 * sends the same message again with its keys in another order or other spacing gets `repeat`
 * under its Idempotency-Key, not a conflict. Under a new key (or none) the same content is a
 * `repeat` while it is what the entity last heard, and `overtaken` once a newer message came:
 * without an ERP stamp an old request sent again cannot be told from one that means to go
 * back, and going back is what loses an order's state; an ERP that means it sends the message
 * with a newer `erpTimestamp`.
 */
export function httpInbound(
  kinds: InboxKinds<PushBackKindName>,
  accept: ReturnType<typeof inboxAcceptor>,
  count: CountInbound,
  rules: InboundRules = DEFAULT_INBOUND_RULES,
) {
  return (
    kind: PushBackKindName,
    body: unknown,
    idempotencyKey: string | undefined,
  ): InboundResult => {
    const parsed = parseInboxBody(kinds.kind(kind), body, rules);
    if (!parsed.ok) {
      count({ kind, source: 'http', result: 'rejected' }, 1);
      return { status: 'invalid', problems: parsed.problems };
    }
    const name = idempotencyKey ?? `request-${randomUUID()}`;
    const message = inboxMessage(kinds.kind(kind), 'http', name, parsed.body, parsed.stamp);
    const kept = accept(message);
    const result = kept.outcome === 'conflict' ? 'rejected' : kept.outcome;
    count({ kind, source: 'http', result }, 1);
    if (kept.outcome === 'overtaken') {
      // The ERP's own names: it sent both.
      return { status: 'overtaken', id: message.name, reason: overtakenText(kept.overtaking) };
    }
    return { status: kept.outcome, id: message.name };
  };
}

/**
 * The order an openTRANS answer's ORDER_ID names: a platform `_id`, unique across single and
 * direct orders, so it is looked up in both as the mirror holds them.
 */
export function mirroredOrder(store: Store): OrderLookup {
  return (id) => {
    const single = getMirror(store, 'singleOrder', id);
    if (single !== undefined) return { orderType: 'single', record: single.record };
    const direct = getMirror(store, 'directOrder', id);
    return direct === undefined ? undefined : { orderType: 'direct', record: direct.record };
  };
}

/** The file inbox's options as `erp.file`, `timezone` and `inbound` set them. */
export function fileInboxOptions(config: Config): InboxOptions {
  const file = config.erp.file;
  return {
    inbox: file.inbox,
    doneMarker: file.doneMarker,
    minFileAgeMs: file.minFileAgeMs,
    maxFileBytes: file.maxFileBytes,
    charset: file.charset,
    csv: file.csv,
    csvAllOrNothing: file.csvAllOrNothing,
    fileMode: fileModeOf(file.fileMode),
    timeZone: config.timezone,
    unknownFields: config.inbound.unknownFields,
    ...(file.openTransTrackingLink === undefined
      ? {}
      : { trackingLinkTemplate: file.openTransTrackingLink }),
    mapping: withoutUndefined(file.inboxMapping) as InboxOptions['mapping'],
    valueTables: file.valueTables,
  };
}

/** The single and direct orders of the mirror that carry `salesId`. */
export function mirroredOrdersBySalesId(store: Store): (salesId: string) => KnownOrder[] {
  return (salesId) => [
    ...findMirrorBy(store, 'singleOrder', 'salesId', salesId).map((entry): KnownOrder => ({
      orderType: 'single',
      record: entry.record,
    })),
    ...findMirrorBy(store, 'directOrder', 'salesId', salesId).map((entry): KnownOrder => ({
      orderType: 'direct',
      record: entry.record,
    })),
  ];
}
