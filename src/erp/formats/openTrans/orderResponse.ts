import { orderUnitCode } from './write.js';
import { located, locatedChild, textAt, type Located, type XmlElement } from '../xml/parse.js';
import {
  deliveryWindow,
  numberOf,
  orderedLines,
  orderNamed,
  type OpenTransAnswer,
  type OpenTransOptions,
} from './answer.js';

/** What one ORDERRESPONSE_ITEM confirms. */
interface Confirmed {
  lineItemId: string;
  quantity: number | undefined;
  unit: string | undefined;
  supplierPid: string | undefined;
  delivery: string | undefined;
}

function confirmed(item: XmlElement): Confirmed {
  return {
    lineItemId: textAt(item, 'LINE_ITEM_ID') ?? '',
    quantity: numberOf(textAt(item, 'QUANTITY')),
    unit: textAt(item, 'ORDER_UNIT'),
    supplierPid: textAt(item, 'PRODUCT_ID', 'SUPPLIER_PID'),
    delivery: deliveryWindow(item.children.find((child) => child.name === 'DELIVERY_DATE')),
  };
}

/** How the confirmed line differs from the ordered one, in words; empty when it does not. */
function differences(line: Record<string, unknown>, item: Confirmed): string[] {
  const found: string[] = [];
  if (typeof line.quantity === 'number' && item.quantity !== line.quantity) {
    found.push(`quantity ${line.quantity} → ${item.quantity ?? '?'}`);
  }
  const unit = orderUnitCode(line.unit);
  if (item.unit !== undefined && item.unit !== unit) found.push(`unit ${unit} → ${item.unit}`);
  const article = line.articleCustomerNumber;
  const pid = item.supplierPid;
  if (typeof article === 'string' && pid !== undefined && pid !== article) {
    found.push(`article ${article} → ${pid}`);
  }
  return found;
}

/**
 * The line changes an answer makes, as notes: they are reported, never written to the order
 * (design.md, #26). With the order at hand each line is compared with what was ordered;
 * without it only what the response itself says (a line's own delivery date) is noted.
 */
function lineNotes(
  orderId: string,
  items: Confirmed[],
  order: Record<string, unknown> | undefined,
): string[] {
  const notes = items
    .filter((item) => item.delivery !== undefined)
    .map((item) => `order ${orderId}, line ${item.lineItemId}: delivery ${item.delivery ?? ''}`);
  if (order === undefined) {
    const confirmed = `order ${orderId}: ${items.length} line(s) confirmed, not compared with the order`;
    return items.length > 0 ? [...notes, confirmed] : notes;
  }
  const ordered = orderedLines(order);
  for (const item of items) {
    const line = ordered.get(item.lineItemId);
    if (line === undefined) {
      notes.push(`order ${orderId}, line ${item.lineItemId}: not a line of the order`);
      continue;
    }
    const changed = differences(line, item);
    if (changed.length > 0) {
      notes.push(`order ${orderId}, line ${item.lineItemId}: ${changed.join(', ')}`);
    }
  }
  const answered = new Set(items.map((item) => item.lineItemId));
  for (const lineItemId of ordered.keys()) {
    if (!answered.has(lineItemId)) {
      notes.push(`order ${orderId}, line ${lineItemId}: missing from the order response`);
    }
  }
  return notes;
}

/**
 * An ORDERRESPONSE (schema-valid): SUPPLIER_ORDER_ID becomes the order's `salesId`. The
 * confirmed delivery date and the line changes are notes: the orderStatus message carries
 * neither, and line changes are reported rather than written.
 */
export function orderResponseAnswer(root: XmlElement, options: OpenTransOptions): OpenTransAnswer {
  const document: Located = { element: root, path: root.name };
  const header = locatedChild(document, 'ORDERRESPONSE_HEADER');
  const info = header && locatedChild(header, 'ORDERRESPONSE_INFO');
  const orderIdAt = info && locatedChild(info, 'ORDER_ID');
  if (info === undefined || orderIdAt === undefined) {
    // The schema requires both; reached only if a caller skipped the schema check.
    return { messages: [], notes: [], problems: [{ path: document.path, message: 'no ORDER_ID' }] };
  }
  const named = orderNamed(orderIdAt, options);
  if (!named.ok) return { messages: [], notes: [], problems: [named.problem] };
  const { ref, order } = named;
  const notes: string[] = [];
  const delivery = deliveryWindow(locatedChild(info, 'DELIVERY_DATE')?.element);
  if (delivery !== undefined)
    notes.push(`order ${ref.orderId}: delivery confirmed for ${delivery}`);
  const list = locatedChild(document, 'ORDERRESPONSE_ITEM_LIST');
  const items = (list ? located(list, 'ORDERRESPONSE_ITEM') : []).map((i) => confirmed(i.element));
  notes.push(...lineNotes(ref.orderId, items, order));
  const salesId = textAt(info.element, 'SUPPLIER_ORDER_ID');
  if (salesId === undefined) {
    notes.push(`order ${ref.orderId}: no SUPPLIER_ORDER_ID, so nothing is written to the order`);
    return { messages: [], notes, problems: [] };
  }
  const body = { orderType: ref.orderType, id: ref.id, salesId };
  return { messages: [{ kind: 'orderStatus', orderId: ref.orderId, body }], notes, problems: [] };
}
