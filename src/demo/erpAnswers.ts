import { ORDER_STATUS, orderStatusName } from '../contract/index.js';
import type { InboxDrop } from './dropFile.js';

export type OrderResource = 'singleOrder' | 'directOrder';
export const ORDER_RESOURCES: readonly OrderResource[] = ['singleOrder', 'directOrder'];

/** An order as the daemon wrote it to the outbox (the platform's record, enriched). */
export type OutboxOrder = Record<string, unknown>;

type Lines = Record<string, unknown>[];

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : undefined;
const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);
const defined = (entries: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(entries).filter(([, value]) => value !== undefined));

/** Only an order still Created is new to the ERP; the seed's history orders are left alone. */
export function isNewOrder(order: OutboxOrder): boolean {
  return order['status'] === ORDER_STATUS.Created && order['archived'] !== true;
}

/** Where the parcel goes: the order's delivery address, else the patient's from the enrichment. */
function deliveryAddressOf(order: OutboxOrder): Record<string, unknown> {
  if (isObject(order['deliveryAddress'])) return order['deliveryAddress'];
  const patient = isObject(order['patient']) ? order['patient'] : {};
  const name = [text(patient['firstName']), text(patient['lastName'])].filter(Boolean).join(' ');
  return defined({
    name: name === '' ? undefined : name,
    address: text(patient['address']),
    postalCode: text(patient['postalCode']),
    city: text(patient['city']),
  });
}

/** The ERP order's lines: what was ordered, delivered in full. */
function erpLinesOf(order: OutboxOrder, salesId: string): Lines {
  const lines = Array.isArray(order['orderedArticleLines']) ? order['orderedArticleLines'] : [];
  return lines
    .filter((line): line is Record<string, unknown> => isObject(line) && line['archived'] !== true)
    .map((line) =>
      defined({
        articleId: text(line['articleId']),
        articleDescription: text(line['articleName']) ?? text(line['articleCustomerNumber']),
        unit: text(line['unit']),
        quantity: line['quantity'],
        deliveredQuantity: line['quantity'],
        orderNumber: salesId,
      }),
    );
}

export function trackingFor(salesId: string): { trackingCode: string; trackingLink: string } {
  const digits = salesId.replace(/\D/g, '').padStart(8, '0');
  const trackingCode = `00340434${digits}`;
  return { trackingCode, trackingLink: `https://tracking.example/${trackingCode}` };
}

export interface Answer extends InboxDrop {
  /** What the answer means, for the demo's plain log line. */
  says: string;
}

/**
 * What a real ERP sends back for a new order, in order: Processed with its salesId, the ERP
 * order with delivery and tracking, Sent with tracking, Delivered. The file names sort in
 * that order, so a scan that finds several at once hands them over in the right order. An
 * order without lines gets no ERP order (the platform needs at least one line).
 */
export function answersFor(
  resource: OrderResource,
  order: OutboxOrder,
  salesId: string,
  now: Date,
): Answer[] {
  const id = String(order['_id']);
  const orderType = resource === 'singleOrder' ? 'single' : 'direct';
  const tracking = [trackingFor(salesId)];
  const status = (step: number, code: number, more: Record<string, unknown> = {}): Answer => ({
    kind: 'orderStatus',
    name: `${salesId}-${step}-${orderStatusName(code)}.json`,
    body: { orderType, id, status: code, ...more },
    says: `${orderType} order ${id} → ${orderStatusName(code)} (${salesId})`,
  });
  const lines = erpLinesOf(order, salesId);
  const erpOrder: Answer = {
    kind: 'erpOrder',
    name: `${salesId}-2-erpOrder.json`,
    body: {
      salesId,
      patientId: order['patientId'],
      outboundDate: now.toISOString(),
      deliveryAddress: deliveryAddressOf(order),
      erpOrderedArticleLines: lines,
      trackingInfo: tracking,
      // Variant B's body schema marks every ERP order field required.
      annotation: '',
      prescriptionStatus:
        typeof order['prescriptionStatus'] === 'string' ? order['prescriptionStatus'] : '',
      trackingLink: tracking[0]?.trackingLink ?? '',
      therapyId: typeof order['therapyId'] === 'number' ? order['therapyId'] : 0,
      completed: true,
    },
    says: `ERP order ${salesId} for ${orderType} order ${id}: ${lines.length} line(s), tracking ${tracking[0]?.trackingCode ?? ''}`,
  };
  return [
    status(1, ORDER_STATUS.Processed, { salesId }),
    ...(lines.length > 0 ? [erpOrder] : []),
    status(3, ORDER_STATUS.Sent, { trackingInfo: tracking }),
    status(4, ORDER_STATUS.Delivered),
  ];
}
