import type { InboxMessage } from '../erp/adapter.js';
import type { Handler, NewJob, Superseding } from '../queue/types.js';
import { inboxJobKey, type Store } from '../store/index.js';
import type { PushBackKind } from './descriptor.js';
import { PUSH_BACK_KINDS, type PushBackKindName } from './kinds/index.js';

const BY_NAME: ReadonlyMap<string, PushBackKind> = new Map(
  PUSH_BACK_KINDS.map((kind): [string, PushBackKind] => [kind.name, kind]),
);

export const PUSH_BACK_KIND_NAMES: readonly PushBackKindName[] = PUSH_BACK_KINDS.map(
  (kind) => kind.name,
);

export function isPushBackKind(name: string): name is PushBackKindName {
  return BY_NAME.has(name);
}

/** The queue's rule for `queue retry`: which kinds' jobs carry their entity's whole state. */
export const supersedingKind: Superseding = (kind) => BY_NAME.get(kind)?.supersedes === true;

/** The handler of each push-back kind, by its name (its job kind). */
export function pushBackHandlers(): Record<string, Handler> {
  return Object.fromEntries(PUSH_BACK_KINDS.map((kind) => [kind.name, kind.handler]));
}

/**
 * The queue job for a validated message from the ERP. Jobs about one entity share the entity
 * key and so run in the order they came. The idempotency key makes the same message (same
 * file or request, same content) queue once, even when it is read again after a crash.
 */
export function jobFromInbox(message: InboxMessage, store: Store): NewJob {
  const { kind, body } = message;
  const descriptor = BY_NAME.get(kind);
  // The inbox and the endpoint take only the kinds registered here.
  if (descriptor === undefined) throw new Error(`${kind} is not a push-back kind`);
  return {
    kind,
    entityKey: descriptor.entityKey?.(body, store) ?? descriptor.businessKey(body),
    payload: body,
    idempotencyKey: inboxJobKey(message),
    supersedes: descriptor.supersedes,
  };
}
