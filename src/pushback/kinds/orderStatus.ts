import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { isOrderStatus } from '../../contract/index.js';
import { CSV_BY_FIELD_NAMES, type Problem } from '../../erp/messages/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import type { Handler, HandlerContext, Job } from '../../queue/types.js';
import { PermanentError } from '../../shared/errors.js';
import { findMirrorBy, getMirror, type MirrorRecord, type Store } from '../../store/index.js';
import type { PushBackKind } from '../descriptor.js';
import { first } from '../entityKeys.js';
import { nothingSent } from '../once/answers.js';
import { about, notKnown } from '../once/failures.js';
import { present, text } from '../inboxRules.js';
import { checkTransition, orderLabel, patchOrder, type OrderResource } from '../orders.js';
import { isObject, textOf, type Body } from '../payload.js';
import { remember } from '../once/remember.js';
import { writeOnce } from '../once/write.js';

interface FoundOrder {
  id: string;
  /** The order as the mirror holds it; undefined when it was never pulled. */
  current: MirrorRecord | undefined;
}

/** The orders mirrored with a salesId, when the message names its order by that alone. */
interface BySalesId {
  salesId: string;
  ids: string[];
}

/** The order a message names: by id, else the one order the mirror holds with its salesId. */
function orderNamed(
  body: Body,
  store: Store,
  resource: OrderResource,
): FoundOrder | BySalesId | undefined {
  const id = textOf(body, 'id');
  if (id !== undefined) return { id, current: getMirror(store, resource, id)?.record };
  const salesId = textOf(body, 'salesId');
  if (salesId === undefined) return undefined;
  const entries = findMirrorBy(store, resource, 'salesId', salesId);
  const [entry] = entries;
  if (entries.length === 1 && entry) return { id: entry.id, current: entry.record };
  return { salesId, ids: entries.map((e) => e.id) };
}

const ambiguous = (resource: OrderResource, { salesId, ids }: BySalesId) =>
  `several ${orderLabel(resource)}s carry salesId ${salesId} (${ids.join(', ')}); send the order's id instead of its salesId`;

function findOrder(job: Job, context: HandlerContext, resource: OrderResource): FoundOrder {
  const named = orderNamed(job.payload, context.store, resource);
  if (named === undefined) {
    throw new PermanentError(`orderStatus job ${job.id} names no order: send id or salesId`, {
      resource,
      code: 'BAD_JOB',
    });
  }
  if ('id' in named) return named;
  const { salesId } = named;
  if (named.ids.length > 1) {
    throw new PermanentError(ambiguous(resource, named), {
      resource,
      id: salesId,
      code: 'AMBIGUOUS_SALES_ID',
    });
  }
  throw notKnown(
    job,
    `no ${orderLabel(resource)} with salesId ${salesId} is known`,
    "it must be pulled first: check the salesId, or send the order's id",
    { resource, id: salesId },
  );
}

/**
 * The order's parcels with the message's: a part shipment adds its parcel, so a message never
 * takes one away (issue 36: every parcel once). One with a trackingCode the order has already
 * replaces it (a corrected link); one without a code is added unless the order has it.
 */
function withParcels(current: unknown, given: unknown): unknown {
  if (!Array.isArray(given)) return given;
  const parcels: unknown[] = Array.isArray(current) ? [...(current as unknown[])] : [];
  for (const parcel of given as unknown[]) {
    const code = isObject(parcel) ? parcel.trackingCode : undefined;
    const at = parcels.findIndex((known) =>
      code === undefined
        ? isDeepStrictEqual(known, parcel)
        : isObject(known) && known.trackingCode === code,
    );
    if (at === -1) parcels.push(parcel);
    else parcels[at] = parcel;
  }
  return parcels;
}

/** What the message changes compared with the order's current state; nothing when all is equal. */
function changesOf(message: Body, current: MirrorRecord | undefined): PlatformRecord {
  const fields = ['status', 'erpOrderNumber', 'trackingInfo'];
  // Without id, salesId is how the order was found, not a change.
  if (textOf(message, 'id') !== undefined) fields.push('salesId');
  const changes: PlatformRecord = {};
  for (const field of fields) {
    const value =
      field === 'trackingInfo'
        ? withParcels(current?.trackingInfo, message.trackingInfo)
        : message[field];
    if (value === undefined) continue;
    if (current && isDeepStrictEqual(current[field], value)) continue;
    changes[field] = value;
  }
  return changes;
}

const orderResourceOf = (body: Body): OrderResource =>
  body.orderType === 'direct' ? 'directOrder' : 'singleOrder';

/** The ERP's status, salesId, order number and tracking for a single or direct order. */
const pushOrderStatus: Handler = async (job, context) => {
  const resource = orderResourceOf(job.payload);
  const order = findOrder(job, context, resource);
  const subject = `${orderLabel(resource)} ${order.id}`;
  const changes = changesOf(job.payload, order.current);
  if (Object.keys(changes).length === 0) {
    context.logger.debug(
      { resource, id: order.id },
      'the order already carries this; nothing sent',
    );
    nothingSent(context, 'already on the platform');
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

/** The order a status message names, as it names it: `<resource>:<_id>` or by its salesId. */
function orderNamedKey(body: Body): string {
  const resource = orderResourceOf(body);
  const id = textOf(body, 'id');
  return id !== undefined ? `${resource}:${id}` : `${resource}:salesId:${first(body, 'salesId')}`;
}

/**
 * The queue key of the order a status message is about: its `_id` when given or found in the
 * mirror by salesId, so the message runs after the order's acknowledgement (`<resource>:<_id>`).
 */
function orderKey(body: Body, store: Store): string {
  const resource = orderResourceOf(body);
  if (textOf(body, 'id') !== undefined) return orderNamedKey(body);
  const found = findMirrorBy(store, resource, 'salesId', first(body, 'salesId'));
  return found.length === 1 && found[0] ? `${resource}:${found[0].id}` : orderNamedKey(body);
}

export const orderStatus = {
  name: 'orderStatus',
  inbox: { minimum: message, rules: orderStatusRules },
  inboxMapping: CSV_BY_FIELD_NAMES,
  businessKey: orderNamedKey,
  entityKey: orderKey,
  // Each status is a step of the order: none replaces another.
  supersedes: false,
  handler: pushOrderStatus,
} as const satisfies PushBackKind;
