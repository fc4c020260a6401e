/** OrderStatus of single and direct orders (spec document 1, "Order status"). */
export const ORDER_STATUS = {
  Pending: -3,
  Canceled: -2,
  Deleted: -1,
  Created: 0,
  Transmitted: 1,
  Transmission_failure: 2,
  Processed: 3,
  Sent: 4,
  Delivered: 5,
  OrderStopped: 6,
  ErpCall: 7,
  InProgress: 8,
  Progressed: 9,
  PartiallySent: 10,
} as const;

export type OrderStatusName = keyof typeof ORDER_STATUS;
export type OrderStatus = (typeof ORDER_STATUS)[OrderStatusName];

const NAMES = new Map<number, OrderStatusName>(
  Object.entries(ORDER_STATUS).map(([name, value]) => [value, name as OrderStatusName]),
);

export function isOrderStatus(value: unknown): value is OrderStatus {
  return typeof value === 'number' && NAMES.has(value);
}

export function orderStatusName(value: number): string {
  return NAMES.get(value) ?? `unknown status ${value}`;
}

/**
 * The transition table: for each current status, the targets it may not move to. A status
 * absent here follows the row `other`.
 */
const { Created, Pending, Canceled, Deleted } = ORDER_STATUS;

export const TRANSITIONS: ReadonlyArray<{
  from: OrderStatus | 'other';
  forbidden: readonly OrderStatus[] | 'all';
}> = [
  { from: Created, forbidden: [] },
  { from: Pending, forbidden: [Created, Deleted, Pending] },
  { from: Canceled, forbidden: [Created, Deleted, Pending, Canceled] },
  { from: Deleted, forbidden: 'all' },
  { from: 'other', forbidden: [Created, Deleted, Pending] },
];

/** The rule a person reads when `from → to` is refused. */
function refusalRule(from: OrderStatus, to: OrderStatus): string {
  if (from === Deleted) return 'Deleted is an end status; no further change is possible';
  if (to === Created) return 'no order may return to Created';
  if (to === Canceled) return 'a Canceled order may not be canceled again';
  return `only Created may become ${orderStatusName(to)}`;
}

export type TransitionVerdict = { allowed: true } | { allowed: false; reason: string };

/** May an order in status `from` be PATCHed to status `to`? */
export function canTransition(from: number, to: number): TransitionVerdict {
  if (!isOrderStatus(to))
    return { allowed: false, reason: `${to} is not an order status (-3 to 10)` };
  if (!isOrderStatus(from))
    return { allowed: false, reason: `${from} is not an order status (-3 to 10)` };
  const row =
    TRANSITIONS.find((t) => t.from === from) ?? TRANSITIONS.find((t) => t.from === 'other');
  const forbidden = row?.forbidden ?? [];
  if (forbidden === 'all' || forbidden.includes(to)) {
    const names = `${orderStatusName(from)} → ${orderStatusName(to)}`;
    return { allowed: false, reason: `${names} is not allowed; ${refusalRule(from, to)}` };
  }
  return { allowed: true };
}
