/**
 * A DISPATCHNOTIFICATION: the order status of each order it ships, and for a direct order the
 * ERP order that carries its delivery feedback (erpOrder.ts).
 */
import { ORDER_STATUS } from '../../../contract/index.js';
import { withoutUndefined } from '../../../shared/objects.js';
import type { Problem } from '../../messages/problems.js';
import {
  childNamed,
  located,
  locatedChild,
  textAt,
  type Located,
  type XmlElement,
} from '../xml/parse.js';
import {
  numberOf,
  orderedLines,
  orderNamed,
  problemAt,
  type OpenTransAnswer,
  type OpenTransMessage,
  type OpenTransOptions,
} from './answer.js';
import {
  deliveryParty,
  erpOrderOf,
  typed,
  type OrderShipment,
  type Shipment,
  type Shipped,
} from './erpOrder.js';

function shipped(item: Located): Shipped | undefined {
  const reference = locatedChild(item, 'ORDER_REFERENCE');
  const orderIdAt = reference && locatedChild(reference, 'ORDER_ID');
  if (reference === undefined || orderIdAt === undefined) return undefined;
  const product = childNamed(item.element, 'PRODUCT_ID');
  const completed = textAt(item.element, 'DELIVERY_COMPLETED')?.toLowerCase();
  return {
    orderIdAt,
    lineItemId: textAt(reference.element, 'LINE_ITEM_ID') ?? '',
    quantity: numberOf(textAt(item.element, 'QUANTITY')),
    unit: textAt(item.element, 'ORDER_UNIT'),
    completed: completed === undefined ? undefined : completed === 'true',
    salesId: textAt(item.element, 'SUPPLIER_ORDER_REFERENCE', 'SUPPLIER_ORDER_ID'),
    // BUYER_PID of type `buyer_specific` is the platform's articleId, as our ORDER wrote it.
    articleId: typed(product, 'BUYER_PID', 'buyer_specific'),
    description: product && textAt(product, 'DESCRIPTION_SHORT'),
    serialNumber: product && textAt(product, 'SERIAL_NUMBER'),
    batchNumber: product && textAt(product, 'LOT_NUMBER'),
  };
}

/**
 * TRACKING_TRACING_URL when the file has one (the carrier's own link), else the configured
 * template filled with the SHIPMENT_ID; the SHIPMENT_ID is the code.
 */
function trackingOf(info: XmlElement, template: string | undefined): Shipment['tracking'] {
  const code = textAt(info, 'SHIPMENT_ID');
  const link =
    textAt(info, 'TRACKING_TRACING_URL') ??
    (template !== undefined && code !== undefined
      ? template.replaceAll('{shipmentId}', encodeURIComponent(code))
      : undefined);
  if (code === undefined && link === undefined) return undefined;
  return withoutUndefined({ trackingCode: code, trackingLink: link });
}

/** The platform takes a date-time; an openTRANS date alone is taken as that day's start (UTC). */
function dateTime(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}T/.test(value)) return value;
  return /^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : undefined;
}

function shipmentOf(info: XmlElement, options: OpenTransOptions): Shipment {
  const date =
    textAt(info, 'DISPATCHNOTIFICATION_DATE') ??
    textAt(info, 'DELIVERY_DATE', 'DELIVERY_START_DATE');
  return { tracking: trackingOf(info, options.trackingLinkTemplate), outboundDate: dateTime(date) };
}

/** Why the notification ships only part of the order, or undefined when it ships all of it. */
function partReason(items: Shipped[], order: Record<string, unknown> | undefined) {
  const more = items.filter((item) => item.completed === false).map((item) => item.lineItemId);
  if (more.length > 0) return `DELIVERY_COMPLETED is false for line(s) ${more.join(', ')}`;
  if (order === undefined) return undefined;
  const open: string[] = [];
  for (const [lineItemId, line] of orderedLines(order)) {
    if (typeof line.quantity !== 'number') continue;
    const before = typeof line.deliveredQuantity === 'number' ? line.deliveredQuantity : 0;
    const now = items
      .filter((item) => item.lineItemId === lineItemId)
      .reduce((sum, item) => sum + (item.quantity ?? 0), 0);
    if (before + now < line.quantity) open.push(lineItemId);
  }
  return open.length > 0
    ? `line(s) ${open.join(', ')} of the order are not all shipped`
    : undefined;
}

function messagesOf(
  shipment: OrderShipment,
  header: Shipment,
  party: XmlElement | undefined,
  notes: string[],
): OpenTransMessage[] {
  const { ref, salesId } = shipment;
  const status = shipment.partial ? ORDER_STATUS.PartiallySent : ORDER_STATUS.Sent;
  const body: Record<string, unknown> = {
    orderType: ref.orderType,
    id: ref.id,
    status,
    ...(salesId === undefined ? {} : { salesId }),
  };
  if (ref.orderType === 'single') {
    if (header.tracking !== undefined) body.trackingInfo = [header.tracking];
    return [{ kind: 'orderStatus', orderId: ref.orderId, body }];
  }
  const messages: OpenTransMessage[] = [{ kind: 'orderStatus', orderId: ref.orderId, body }];
  const erpOrder = erpOrderOf(shipment, header, party);
  if ('body' in erpOrder) {
    messages.push({ kind: 'erpOrder', orderId: ref.orderId, body: erpOrder.body });
  } else {
    const lost = header.tracking === undefined ? '' : ', so its tracking is not sent either';
    notes.push(`direct order ${ref.orderId}: no ERP order sent (${erpOrder.missing})${lost}`);
  }
  return messages;
}

/** The items by the order they ship, in the order the orders first appear. */
function byOrder(items: Shipped[]): Map<string, Shipped[]> {
  const groups = new Map<string, Shipped[]>();
  for (const item of items) {
    const orderId = item.orderIdAt.element.text.trim();
    groups.set(orderId, [...(groups.get(orderId) ?? []), item]);
  }
  return groups;
}

/** One SUPPLIER_ORDER_ID per order: two would leave its salesId to chance. */
function salesIdOf(items: Shipped[]): { salesId: string | undefined } | { problem: Problem } {
  const first = items.find((item) => item.salesId !== undefined);
  const other = items.find((item) => item.salesId !== undefined && item.salesId !== first?.salesId);
  if (other === undefined) return { salesId: first?.salesId };
  const message = `SUPPLIER_ORDER_ID ${other.salesId ?? ''} differs from ${first?.salesId ?? ''} for the same order`;
  return { problem: problemAt(other.orderIdAt, message) };
}

/**
 * A DISPATCHNOTIFICATION (schema-valid): each order its items reference (ORDER_REFERENCE) is
 * sent, or partly sent (PartiallySent) when the notification says more follows or leaves lines
 * of the order out; SUPPLIER_ORDER_REFERENCE gives its salesId, SHIPMENT_ID its tracking.
 */
export function dispatchNotificationAnswer(
  root: XmlElement,
  options: OpenTransOptions,
): OpenTransAnswer {
  const document: Located = { element: root, path: root.name };
  const header = locatedChild(document, 'DISPATCHNOTIFICATION_HEADER');
  const info = header && locatedChild(header, 'DISPATCHNOTIFICATION_INFO');
  const list = locatedChild(document, 'DISPATCHNOTIFICATION_ITEM_LIST');
  if (info === undefined || list === undefined) {
    // The schema requires both; reached only if a caller skipped the schema check.
    const problem = { path: document.path, message: 'no DISPATCHNOTIFICATION_INFO or item list' };
    return { messages: [], notes: [], problems: [problem] };
  }
  const shipment = shipmentOf(info.element, options);
  const party = deliveryParty(info.element);
  const items = located(list, 'DISPATCHNOTIFICATION_ITEM').flatMap((item) => shipped(item) ?? []);
  const messages: OpenTransMessage[] = [];
  const notes: string[] = [];
  const problems: Problem[] = [];
  if (shipment.tracking === undefined)
    notes.push('no SHIPMENT_ID or TRACKING_TRACING_URL: no tracking');
  for (const [orderId, group] of byOrder(items)) {
    const first = group[0];
    if (first === undefined) continue;
    const named = orderNamed(first.orderIdAt, options);
    const sales = salesIdOf(group);
    if (!named.ok) problems.push(named.problem);
    if ('problem' in sales) problems.push(sales.problem);
    if (!named.ok || 'problem' in sales) continue;
    const part = partReason(group, named.order);
    if (part !== undefined) notes.push(`order ${orderId}: PartiallySent, as ${part}`);
    const { ref, order } = named;
    const one = { ref, order, items: group, salesId: sales.salesId, partial: part !== undefined };
    messages.push(...messagesOf(one, shipment, party, notes));
  }
  return problems.length > 0 ? { messages: [], notes, problems } : { messages, notes, problems };
}
