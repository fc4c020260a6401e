import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { isOrderStatus } from '../../contract/index.js';
import type { Problem } from '../../erp/inbox/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import type { Handler, HandlerContext, Job } from '../../queue/types.js';
import { PermanentError } from '../../shared/errors.js';
import { findMirrorBy, getMirror, type MirrorRecord, type Store } from '../../store/index.js';
import type { PushBackKind } from '../descriptor.js';
import { first } from '../entityKeys.js';
import { about, notKnown } from '../failures.js';
import { present, text } from '../inboxRules.js';
import { checkTransition, orderLabel, patchOrder, type OrderResource } from '../orders.js';
import { textOf, type Body } from '../payload.js';
import { remember } from '../remember.js';
import { writeOnce } from '../writeOnce.js';

interface FoundOrder {
  id: string;
  /** The order as the mirror holds it; undefined when it was never pulled. */
  current: MirrorRecord | undefined;
}

function bySalesId(job: Job, context: HandlerContext, resource: OrderResource, salesId: string) {
  const entries = findMirrorBy(context.store, resource, 'salesId', salesId);
  const label = orderLabel(resource);
  if (entries.length > 1) {
    const ids = entries.map((e) => e.id).join(', ');
    throw new PermanentError(
      `several ${label}s carry salesId ${salesId} (${ids}); send the order's id instead of its salesId`,
      { resource, id: salesId, code: 'AMBIGUOUS_SALES_ID' },
    );
  }
  const entry = entries[0];
  if (entry) return { id: entry.id, current: entry.record };
  throw notKnown(
    job,
    `no ${label} with salesId ${salesId} is known`,
    "it must be pulled first: check the salesId, or send the order's id",
    { resource, id: salesId },
  );
}

function findOrder(job: Job, context: HandlerContext, resource: OrderResource): FoundOrder {
  const id = textOf(job.payload, 'id');
  if (id !== undefined) return { id, current: getMirror(context.store, resource, id)?.record };
  const salesId = textOf(job.payload, 'salesId');
  if (salesId !== undefined) return bySalesId(job, context, resource, salesId);
  throw new PermanentError(`orderStatus job ${job.id} names no order: send id or salesId`, {
    resource,
    code: 'BAD_JOB',
  });
}

/** What the message changes compared with the order's current state; nothing when all is equal. */
function changesOf(message: Body, current: MirrorRecord | undefined): PlatformRecord {
  const fields = ['status', 'erpOrderNumber', 'trackingInfo'];
  // Without id, salesId is how the order was found, not a change.
  if (textOf(message, 'id') !== undefined) fields.push('salesId');
  const changes: PlatformRecord = {};
  for (const field of fields) {
    const value = message[field];
    if (value === undefined) continue;
    if (current && isDeepStrictEqual(current[field], value)) continue;
    changes[field] = value;
  }
  return changes;
}

/** The ERP's status, salesId, order number and tracking for a single or direct order. */
const pushOrderStatus: Handler = async (job, context) => {
  const resource: OrderResource =
    job.payload.orderType === 'direct' ? 'directOrder' : 'singleOrder';
  const order = findOrder(job, context, resource);
  const subject = `${orderLabel(resource)} ${order.id}`;
  const changes = changesOf(job.payload, order.current);
  if (Object.keys(changes).length === 0) {
    context.logger.debug(
      { resource, id: order.id },
      'the order already carries this; nothing sent',
    );
    return;
  }
  if (typeof changes.status === 'number') {
    if (!order.current) {
      throw notKnown(
        job,
        `${subject} has not been pulled, so its status change cannot be checked against the transition table`,
        'pull the order first (reset its checkpoint if needed), then retry this job',
        { resource, id: order.id },
      );
    }
    checkTransition(resource, order.id, order.current.status, changes.status);
  }
  const change = { resource, id: order.id, body: changes };
  const answer = await about(subject, () =>
    writeOnce(job, context, change, () => patchOrder(context.client, resource, order.id, changes)),
  );
  return remember(context, resource, answer, { body: changes });
};

/** The whole message: it writes no one entity of the platform's but fields of an order. */
const message = z.strictObject({
  orderType: z.enum(['single', 'direct']),
  id: text.optional(),
  salesId: text.optional(),
  status: z.number().refine(isOrderStatus, 'must be an order status from -3 to 10').optional(),
  erpOrderNumber: text.optional(),
  trackingInfo: z
    .array(
      z.strictObject({ trackingLink: z.string().optional(), trackingCode: z.string().optional() }),
    )
    .optional(),
});

/** `id` finds the order when given (then `salesId` is a change); else `salesId` finds it. */
function orderStatusRules(body: Body): Problem[] {
  if (!present(body, 'id') && !present(body, 'salesId')) {
    return [{ path: 'id', message: 'id or salesId is required to find the order' }];
  }
  const changes = [body.status, body.erpOrderNumber, body.trackingInfo];
  if (present(body, 'id')) changes.push(body.salesId);
  return changes.some((value) => value !== undefined)
    ? []
    : [
        {
          path: '',
          message:
            'nothing to change: give status, erpOrderNumber, trackingInfo or, with id, salesId',
        },
      ];
}

/**
 * The key of the order a status message is about: its `_id` when given or found in the mirror
 * by salesId, so the message runs after the order's acknowledgement (`<resource>:<_id>`).
 */
function orderKey(body: Body, store: Store): string {
  const resource = body.orderType === 'direct' ? 'directOrder' : 'singleOrder';
  const id = textOf(body, 'id');
  if (id !== undefined) return `${resource}:${id}`;
  const salesId = first(body, 'salesId');
  const found = findMirrorBy(store, resource, 'salesId', salesId);
  return found.length === 1 && found[0]
    ? `${resource}:${found[0].id}`
    : `${resource}:salesId:${salesId}`;
}

export const orderStatus = {
  name: 'orderStatus',
  inbox: { minimum: message, rules: orderStatusRules },
  entityKey: orderKey,
  // Each status is a step of the order: none replaces another.
  supersedes: false,
  handler: pushOrderStatus,
} as const satisfies PushBackKind;
