import { isDeepStrictEqual } from 'node:util';
import type { PlatformRecord } from '../platform/index.js';
import { PermanentError } from '../shared/errors.js';
import { findMirrorBy, getMirror, type MirrorRecord } from '../store/index.js';
import type { Handler, HandlerContext, Job } from '../queue/types.js';
import { about, notKnown } from './failures.js';
import { checkTransition, orderLabel, patchOrder, type OrderResource } from './orders.js';
import { textOf, type Body } from './payload.js';
import { remember } from './remember.js';
import { writeOnce } from './writeOnce.js';

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
export const pushOrderStatus: Handler = async (job, context) => {
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
