import { orderLineItems } from './write.js';
import type { OrderLookup } from '../../messages/orders.js';
import type { Problem } from '../../messages/problems.js';
import { textAt, type Located, type XmlElement } from '../xml/parse.js';

/** An order an answer names by its ORDER_ID, which our ORDER file wrote as the order's `_id`. */
export interface OrderRef {
  orderType: 'single' | 'direct';
  /** The platform's `_id`. */
  id: string;
  /** ORDER_ID as the file wrote it. */
  orderId: string;
}

export interface OpenTransOptions {
  /** ReadOptions.trackingLinkTemplate. */
  trackingLinkTemplate?: string | undefined;
  /**
   * The order as the mirror holds it. Given, an answer naming an unknown order is refused, an
   * order response's lines are compared with it, and a dispatch notification that leaves lines
   * of it out is a part shipment.
   */
  orderOf?: OrderLookup | undefined;
}

/** A push-back message an answer causes, in the shape of its inbox kind. */
export interface OpenTransMessage {
  kind: 'orderStatus' | 'erpOrder';
  /** ORDER_ID the message is about; with `kind` it names the message within its file. */
  orderId: string;
  body: Record<string, unknown>;
}

/** `notes`: what the file says that is not written to the platform (logged, not lost). */
export interface OpenTransAnswer {
  messages: OpenTransMessage[];
  notes: string[];
  /** What makes the file unusable although it is schema-valid: then nothing of it is sent. */
  problems: Problem[];
}

export const problemAt = (where: Located, message: string): Problem => ({
  path: where.path,
  line: where.element.line,
  message,
});

/**
 * The order an ORDER_ID names, and that order from the mirror when `orderOf` is given; a
 * problem when the ORDER_ID cannot be ours or names an order the daemon does not know.
 */
export function orderNamed(
  where: Located,
  options: OpenTransOptions,
):
  | { ok: true; ref: OrderRef; order: Record<string, unknown> | undefined }
  | { ok: false; problem: Problem } {
  const orderId = where.element.text.trim();
  if (orderId === '') return { ok: false, problem: problemAt(where, `"" names no order`) };
  const known = options.orderOf?.(orderId);
  if (options.orderOf !== undefined && known === undefined) {
    const message = `ORDER_ID ${orderId} names no single or direct order the daemon knows`;
    return { ok: false, problem: problemAt(where, message) };
  }
  // Without the mirror (a check of the file alone) an order counts as a single order.
  const ref = { orderType: known?.orderType ?? 'single', id: orderId, orderId } as const;
  return { ok: true, ref, order: known?.record };
}

export const numberOf = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Number(value);

/** The lines of an order as our ORDER wrote them, by LINE_ITEM_ID. */
export function orderedLines(order: Record<string, unknown>): Map<string, Record<string, unknown>> {
  return new Map(orderLineItems(order).map(({ lineItemId, line }) => [lineItemId, line]));
}

/** `2026-03-04` or `2026-03-04 – 2026-03-06`, from a DELIVERY_DATE element. */
export function deliveryWindow(element: XmlElement | undefined): string | undefined {
  if (element === undefined) return undefined;
  const start = textAt(element, 'DELIVERY_START_DATE');
  const end = textAt(element, 'DELIVERY_END_DATE');
  return start === end ? start : `${start ?? '?'} – ${end ?? '?'}`;
}
