/** An order the daemon's mirror holds, single or direct. */
export interface KnownOrder {
  orderType: 'single' | 'direct';
  record: Record<string, unknown>;
}

/**
 * The order with this `_id` as the daemon's mirror holds it, single or direct, or undefined
 * when it holds none.
 */
export type OrderLookup = (id: string) => KnownOrder | undefined;

/** The orders of the daemon's mirror, by `_id` and by `salesId`: whom a status row is about. */
export interface OrderReferences {
  byId?: OrderLookup | undefined;
  /** The single and direct orders that carry this salesId. */
  bySalesId?: ((salesId: string) => KnownOrder[]) | undefined;
}

type Body = Record<string, unknown>;

export type Referenced = { ok: true; body: Body } | { ok: false; path: string; message: string };

const textAt = (body: Body, field: string) => {
  const value = body[field];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

function found(body: Body, path: string, orders: readonly KnownOrder[], what: string): Referenced {
  const [order, second] = orders;
  const refused = (at: string, message: string) => ({ ok: false as const, path: at, message });
  if (order === undefined) {
    const why =
      'names no single or direct order the daemon knows; check the column, or pull the order first';
    return refused(path, `${what} ${why}`);
  }
  if (second !== undefined) {
    return refused(path, `${what} names ${orders.length} orders; give the order's _id instead`);
  }
  const given = body.orderType;
  if (given !== undefined && given !== order.orderType) {
    const says = `the file says ${JSON.stringify(given)}`;
    return refused('orderType', `${what} is a ${order.orderType} order, ${says}`);
  }
  if (order.orderType === 'direct' && body.trackingInfo !== undefined) {
    const why =
      'which carries no trackingInfo; map the tracking to erpOrder (erp.file.inboxMapping.erpOrder) instead';
    return refused('trackingInfo', `${what} is a direct order, ${why}`);
  }
  return { ok: true, body: { ...body, orderType: order.orderType } };
}

/**
 * An order status row of a mapped file, with the order it names looked up in the mirror: by
 * `id` (its `_id`) or else by `salesId`. An order the daemon does not know is a problem of the
 * row; the order's type (single or direct) is taken from the mirror, so the ERP's file need not
 * say it. Without the mirror (a check of the file alone) an order counts as a single order.
 */
export function withOrderReference(body: Body, orders: OrderReferences): Referenced {
  const id = textAt(body, 'id');
  if (id !== undefined && orders.byId !== undefined) {
    const order = orders.byId(id);
    return found(body, 'id', order === undefined ? [] : [order], `id ${id}`);
  }
  const salesId = textAt(body, 'salesId');
  if (id === undefined && salesId !== undefined && orders.bySalesId !== undefined) {
    return found(body, 'salesId', orders.bySalesId(salesId), `salesId ${salesId}`);
  }
  return { ok: true, body: { orderType: 'single', ...body } };
}
