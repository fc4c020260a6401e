/**
 * The ERP order a direct order's DISPATCHNOTIFICATION becomes: the contract gives direct orders
 * no `trackingInfo`, so their delivery feedback reaches the platform this way (design.md, #26).
 */
import { isPlainObject, withoutUndefined } from '../../../shared/objects.js';
import { childNamed, childrenNamed, textAt, type Located, type XmlElement } from '../xml/parse.js';
import { orderedLines, type OrderRef } from './answer.js';
import { ADDRESS_FIELDS } from './write.js';

/** What one DISPATCHNOTIFICATION_ITEM ships, and for which order line. */
export interface Shipped {
  orderIdAt: Located;
  lineItemId: string;
  quantity: number | undefined;
  unit: string | undefined;
  /** DELIVERY_COMPLETED: false says more of this line follows. */
  completed: boolean | undefined;
  salesId: string | undefined;
  articleId: string | undefined;
  description: string | undefined;
  serialNumber: string | undefined;
  batchNumber: string | undefined;
}

/** What the notification's header says of the shipment as a whole. */
export interface Shipment {
  tracking: { trackingCode?: string; trackingLink?: string } | undefined;
  outboundDate: string | undefined;
}

/** What a DISPATCHNOTIFICATION says of one of the orders it ships. */
export interface OrderShipment {
  ref: OrderRef;
  order: Record<string, unknown> | undefined;
  items: Shipped[];
  salesId: string | undefined;
  partial: boolean;
}

/** The text of the child `name` whose attribute `type` is `type`: our ORDER's ids by type. */
export function typed(
  parent: XmlElement | undefined,
  name: string,
  type: string,
): string | undefined {
  const found =
    parent && childrenNamed(parent, name).find((e) => e.attributes.get('type') === type);
  return found && textAt(found);
}

/** The delivery party of the header: the patient, named as our ORDER named it. */
export function deliveryParty(info: XmlElement): XmlElement | undefined {
  const parties = childNamed(info, 'PARTIES');
  const isDelivery = (party: XmlElement) =>
    childrenNamed(party, 'PARTY_ROLE').some((role) => role.text.trim() === 'delivery');
  return parties && childrenNamed(parties, 'PARTY').find(isDelivery);
}

function patientOf(party: XmlElement | undefined, order: Record<string, unknown> | undefined) {
  const patientId = typed(party, 'PARTY_ID', 'buyer_specific') ?? order?.patientId;
  const customerId = typed(party, 'PARTY_ID', 'supplier_specific');
  if (typeof patientId === 'string' && patientId !== '') return { patientId };
  return customerId === undefined ? undefined : { patientCustomerId: customerId };
}

/** The address the notification ships to, else the order's own. */
function addressOf(
  party: XmlElement | undefined,
  order: Record<string, unknown> | undefined,
): Record<string, unknown> | undefined {
  const address = party && childNamed(party, 'ADDRESS');
  if (address === undefined) {
    const known = order?.deliveryAddress;
    return isPlainObject(known) ? known : undefined;
  }
  const fields = ADDRESS_FIELDS.map(([element, field]) => [field, textAt(address, element)]);
  return withoutUndefined(Object.fromEntries(fields) as Record<string, string | undefined>);
}

function erpLine(item: Shipped, ordered: Record<string, unknown> | undefined) {
  return withoutUndefined({
    articleId: item.articleId,
    articleDescription: item.description,
    // The platform's own word for the unit where the order is known; the ERP's code else.
    unit: typeof ordered?.unit === 'string' ? ordered.unit : item.unit,
    quantity: typeof ordered?.quantity === 'number' ? ordered.quantity : item.quantity,
    deliveredQuantity: item.quantity,
    serialNumber: item.serialNumber,
    batchNumber: item.batchNumber,
  });
}

/** A direct order's shipment as an ERP order, or what the notification lacks for one. */
export function erpOrderOf(
  shipment: OrderShipment,
  header: Shipment,
  party: XmlElement | undefined,
): { body: Record<string, unknown> } | { missing: string } {
  const { order, items, salesId } = shipment;
  if (salesId === undefined) return { missing: 'no SUPPLIER_ORDER_ID' };
  if (header.outboundDate === undefined) {
    return { missing: 'no DISPATCHNOTIFICATION_DATE or delivery date (the outbound date)' };
  }
  const patient = patientOf(party, order);
  if (patient === undefined) return { missing: 'no delivery party naming the patient' };
  const deliveryAddress = addressOf(party, order);
  if (deliveryAddress === undefined) return { missing: 'no delivery address' };
  const ordered = order === undefined ? new Map<string, undefined>() : orderedLines(order);
  const tracking = header.tracking;
  return {
    body: {
      salesId,
      ...patient,
      outboundDate: header.outboundDate,
      deliveryAddress,
      erpOrderedArticleLines: items.map((item) => erpLine(item, ordered.get(item.lineItemId))),
      completed: !shipment.partial,
      ...(tracking === undefined ? {} : { trackingInfo: [tracking] }),
      ...(tracking?.trackingLink === undefined ? {} : { trackingLink: tracking.trackingLink }),
    },
  };
}
