import { createHash, randomUUID } from 'node:crypto';
import type { InboxMessage } from '../erp/adapter.js';
import {
  DEFAULT_INBOUND_RULES,
  parseInboxBody,
  type CountInbound,
  type InboundRules,
  type InboxKinds,
  type OrderLookup,
} from '../erp/inbox/index.js';
import type { InboundResult } from '../http/server.js';
import type { Logger } from '../log/index.js';
import { enqueue } from '../queue/index.js';
import { canonicalJson } from '../shared/canonicalJson.js';
import { jobFromInbox, type PushBackKindName } from '../pushback/index.js';
import {
  getMirror,
  insertInboxMessage,
  settleInboxMessage,
  transaction,
  type Store,
} from '../store/index.js';

/**
 * Takes a validated message from the ERP into SQLite and queues its job, in one transaction:
 * once this returns, the message is durable and the file may move to the archive (or the
 * endpoint may answer 202). The same message again is recognised and not queued twice; an
 * Idempotency-Key used before for another body is a `conflict` and not kept. Logs name the
 * message as `messageName`: a file name or key, which the personal `name` field would hide.
 */
export function inboxAcceptor(store: Store, logger: Logger) {
  return (message: InboxMessage): 'accepted' | 'repeat' | 'conflict' =>
    transaction(store, () => {
      const { id, outcome } = insertInboxMessage(store, {
        kind: message.kind,
        source: message.source,
        name: message.name,
        sha256: message.sha256,
        body: JSON.stringify(message.body),
      });
      const about = { kind: message.kind, messageName: message.name, messageId: id };
      if (outcome === 'conflict') {
        logger.warn(about, 'inbox message refused: its key was used before for another body');
        return 'conflict';
      }
      if (outcome === 'repeat') {
        logger.info(about, 'inbox message seen before; not queued again');
        return 'repeat';
      }
      const job = enqueue(store, jobFromInbox(message, store), logger);
      settleInboxMessage(store, id, 'done');
      logger.info({ ...about, jobId: job.id }, 'inbox message queued');
      return 'accepted';
    });
}

/**
 * POST /erp/<kind>: the same validation as the file inbox (`rules`: `inbound` in the config),
 * then the same hand-off. The body is hashed by its meaning (canonical JSON), so a client that
 * sends the same message again with its keys in another order or other spacing gets `repeat`
 * under its Idempotency-Key, not a conflict.
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
    const text = canonicalJson(parsed.body);
    const message: InboxMessage = {
      kind,
      source: 'http',
      // Without the ERP's idempotency key, two equal requests are two messages (a status may
      // legitimately be sent again later).
      name: idempotencyKey ?? `request-${randomUUID()}`,
      sha256: createHash('sha256').update(text).digest('hex'),
      body: parsed.body,
    };
    const result = accept(message);
    count({ kind, source: 'http', result: result === 'conflict' ? 'rejected' : result }, 1);
    return { status: result, id: message.name };
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
