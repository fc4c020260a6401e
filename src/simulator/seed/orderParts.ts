import { ORDER_STATUS, TRANSMISSION_STATUS, type OrderStatus } from '../../contract/index.js';
import { CARRIERS } from './catalog/texts.js';
import type { ArticleRef, PatientRef, SalesOrderRef, SeedContext } from './context.js';
import type { Therapy } from './catalog/therapies.js';
import { optional } from './pick.js';
import { changeTimes } from './time.js';

const { Created, Transmitted, Processed, Sent, Delivered, OrderStopped, Canceled, PartiallySent } =
  ORDER_STATUS;

/**
 * Order statuses by position: the first four fill the status filter groups created (0),
 * transmitted (1) and updated (3, 4); with isArchivedSlot every tenth from the eighth is
 * archived.
 */
const STATUS_CYCLE: readonly OrderStatus[] = [
  Created,
  Transmitted,
  Processed,
  Sent,
  Created,
  Delivered,
  Processed,
  Transmitted,
  OrderStopped,
  Canceled,
];

export function orderStatusAt(index: number): OrderStatus {
  return STATUS_CYCLE[index % STATUS_CYCLE.length] ?? Created;
}

/** Has the ERP taken the order (and so given it a salesId)? */
export function hasSalesId(status: OrderStatus): boolean {
  return status >= Processed;
}

function shipped(status: OrderStatus): boolean {
  return status === Sent || status === Delivered || status === PartiallySent;
}

export interface OrderLineChoice {
  article: ArticleRef;
  quantity: number;
  unit: string;
}

export function orderedArticleLines(
  ctx: SeedContext,
  lines: readonly OrderLineChoice[],
  status: OrderStatus,
  timestamp: string,
) {
  const { faker } = ctx;
  return lines.map(({ article, quantity, unit }) => {
    const packaging =
      article.packagingUnits.find((p) => p.unit === unit) ?? article.packagingUnits[0];
    return {
      _id: faker.string.uuid(),
      articleId: article._id,
      articleCustomerNumber: article.customerNumber,
      ...optional('packagingUnitId', packaging?._id),
      unit,
      quantity,
      deliveredQuantity: shipped(status) ? quantity : 0,
      price: faker.number.float({ min: 1, max: 250, fractionDigits: 2 }).toFixed(2),
      attributes: {},
      timestamp,
      archived: false,
    };
  });
}

export function lineChoices(ctx: SeedContext, articles: readonly ArticleRef[]): OrderLineChoice[] {
  return articles.map((article) => {
    const packaging = ctx.faker.helpers.arrayElement(article.packagingUnits);
    return { article, quantity: ctx.faker.number.int({ min: 1, max: 6 }), unit: packaging.unit };
  });
}

export function trackingInfo(ctx: SeedContext) {
  const carrier = ctx.faker.helpers.arrayElement(CARRIERS);
  const trackingCode = ctx.faker.string.numeric(14);
  return { trackingCode, trackingLink: `${carrier.link}${trackingCode}` };
}

/**
 * The fields single and direct orders share, by status: no salesId while created or
 * transmitted, a salesId once processed, tracking once sent.
 */
export function orderCommon(ctx: SeedContext, status: OrderStatus, salesId: string | undefined) {
  const { faker } = ctx;
  const times = changeTimes(ctx, status !== Created);
  const transmittedAt =
    status === Created
      ? undefined
      : faker.date.between({ from: times.createdAt, to: times.updatedAt });
  return {
    times,
    fields: {
      ...optional('salesId', salesId),
      creationDate: times.createdAt.toISOString(),
      ...optional('transmittedAt', transmittedAt?.toISOString()),
      status,
      ...optional(
        'prescriptionStatus',
        status === Created ? undefined : faker.helpers.arrayElement(TRANSMISSION_STATUS),
      ),
      ...(shipped(status) ? { trackingInfo: [trackingInfo(ctx)] } : {}),
    },
  };
}

/** Remember an order the ERP has, as long as ERP orders still need one to report on. */
export function rememberSalesOrder(
  ctx: SeedContext,
  order: {
    salesId: string | undefined;
    patient: PatientRef;
    integratedCareId?: string;
    therapy: Therapy;
    lines: readonly OrderLineChoice[];
  },
): void {
  const { salesId } = order;
  if (salesId === undefined || ctx.refs.salesOrders.length >= ctx.sizes.erpOrders) return;
  const ref: SalesOrderRef = { ...order, salesId, integratedCareId: order.integratedCareId };
  ctx.refs.salesOrders.push(ref);
}
