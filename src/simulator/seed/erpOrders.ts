import { TRANSMISSION_STATUS } from '../../contract/index.js';
import type { SalesOrderRef, SeedContext } from './context.js';
import { lineChoices, trackingInfo } from './orderParts.js';
import { articlesFor, sample } from './pick.js';
import type { SeedRecord } from './record.js';
import { auditFields, changeTimes } from './time.js';

/** An order the ERP made itself (by phone, say): not on the platform, fresh salesId. */
function erpOwnOrder(ctx: SeedContext): SalesOrderRef {
  const patient = ctx.faker.helpers.arrayElement(ctx.refs.patients);
  const lines = lineChoices(ctx, sample(ctx, articlesFor(ctx, patient.therapy.id), 1, 3));
  const salesId = `AU-${ctx.next('salesId')}`;
  return { salesId, patient, integratedCareId: undefined, therapy: patient.therapy, lines };
}

/**
 * Delivery feedback of the ERP: first for the platform's orders that have a salesId, then for
 * orders the ERP took on its own. salesIds never repeat.
 */
export function* erpOrders(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  for (let i = 0; i < ctx.sizes.erpOrders; i++) {
    const order = ctx.refs.salesOrders[i] ?? erpOwnOrder(ctx);
    const times = changeTimes(ctx, true);
    const tracking = trackingInfo(ctx);
    const completed = faker.datatype.boolean(0.6);
    const record = {
      _id: faker.string.uuid(),
      patientId: order.patient._id,
      regionId: order.patient.regionId,
      salesId: order.salesId,
      annotation: '',
      prescriptionStatus: faker.helpers.arrayElement(TRANSMISSION_STATUS),
      trackingLink: tracking.trackingLink,
      therapyId: order.therapy.id,
      deliveryAddress: order.patient.deliveryAddress,
      outboundDate: faker.date
        .between({ from: times.createdAt, to: times.updatedAt })
        .toISOString(),
      completed,
      erpOrderedArticleLines: order.lines.map(({ article, quantity, unit }) => ({
        articleId: article._id,
        articleDescription: article.name,
        unit,
        orderNumber: order.salesId,
        ...(order.integratedCareId === undefined
          ? {}
          : { integratedCareId: order.integratedCareId }),
        batchNumber: faker.string.alphanumeric({ length: 8, casing: 'upper' }),
        quantity,
        deliveredQuantity: completed ? quantity : 0,
        therapyId: order.therapy.id,
        archived: false,
      })),
      trackingInfo: [tracking],
      ...auditFields(ctx, false, times),
    };
    yield { resource: 'erpOrder', record };
  }
}
