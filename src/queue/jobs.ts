import type { Contract } from '../contract/index.js';
import type { InboxKind, InboxMessage } from '../erp/adapter.js';
import { findMirrorBy, type Store } from '../store/index.js';
import type { NewJob } from './types.js';

type Body = Record<string, unknown>;

function text(body: Body, field: string): string | undefined {
  const value = body[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function first(body: Body, ...fields: string[]): string {
  for (const field of fields) {
    const value = text(body, field);
    if (value !== undefined) return value;
  }
  return '';
}

/** The patient a message names, as `patientId` or the ERP's `customerId:<patientCustomerId>`. */
function patientOf(body: Body): string {
  const metadata = typeof body.metadata === 'object' && body.metadata !== null ? body.metadata : {};
  const patientId = text(metadata as Body, 'patientId') ?? text(body, 'patientId');
  if (patientId !== undefined) return patientId;
  const customerId = text(body, 'patientCustomerId');
  return customerId === undefined ? '' : `customerId:${customerId}`;
}

/**
 * The key of the order a status message is about: its `_id` when given or found in the mirror
 * by salesId, so the message runs after the order's acknowledgement (`<resource>:<_id>`).
 */
function orderKey(body: Body, store: Store): string {
  const resource = body.orderType === 'direct' ? 'directOrder' : 'singleOrder';
  const id = text(body, 'id');
  if (id !== undefined) return `${resource}:${id}`;
  const salesId = first(body, 'salesId');
  const found = findMirrorBy(store, resource, 'salesId', salesId);
  return found.length === 1 && found[0]
    ? `${resource}:${found[0].id}`
    : `${resource}:salesId:${salesId}`;
}

const KEYS: Record<Exclude<InboxKind, 'orderStatus'>, (body: Body) => string> = {
  erpOrder: (body) => first(body, 'salesId'),
  article: (body) => first(body, 'customerNumber'),
  patient: (body) => first(body, 'customerId'),
  device: (body) => first(body, 'serialNumber'),
  patientNote: (body) => text(body, '_id') ?? patientOf(body),
  integratedCare: (body) => text(body, '_id') ?? patientOf(body),
  attachment: (body) => `${patientOf(body)}/${first(body, 'filename')}`,
  productGroup: (body) => first(body, '_id', 'name'),
  contractArticleGroup: (body) => first(body, '_id', 'name'),
  insuranceContract: (body) => first(body, '_id', 'name'),
};

/**
 * The queue job for a validated message from the ERP. Jobs about one entity share the entity
 * key and so run in the order they came. The idempotency key makes the same message (same
 * file or request, same content) queue once, even when it is read again after a crash.
 * `_contract` is part of the inbox stage's call; no key depends on the variant.
 */
export function jobFromInbox(message: InboxMessage, store: Store, _contract: Contract): NewJob {
  const { kind, body } = message;
  const entityKey = kind === 'orderStatus' ? orderKey(body, store) : `${kind}:${KEYS[kind](body)}`;
  return {
    kind,
    entityKey,
    payload: body,
    idempotencyKey: `inbox:${kind}:${message.source}:${message.name}:${message.sha256}`,
  };
}
