import { ORDER_TYPE } from '../../contract/index.js';
import type { IntegratedCareRef, SeedContext } from './context.js';
import {
  hasSalesId,
  lineChoices,
  orderCommon,
  orderedArticleLines,
  orderStatusAt,
  rememberSalesOrder,
} from './orderParts.js';
import { articlesFor, maybe, optional, sample } from './pick.js';
import type { SeedRecord } from './record.js';
import { auditFields, dateOnly, daysAfter, isArchivedSlot } from './time.js';

/** Single orders: the recurring deliveries of care arrangements, across all statuses. */
export function* singleOrders(ctx: SeedContext): Generator<SeedRecord> {
  const { faker, refs } = ctx;
  for (let i = 0; i < ctx.sizes.singleOrders; i++) {
    const care = refs.integratedCares[i % refs.integratedCares.length] as IntegratedCareRef;
    const { patient, therapy } = care;
    const status = orderStatusAt(i);
    const salesId = hasSalesId(status) ? `AU-${ctx.next('salesId')}` : undefined;
    const { times, fields } = orderCommon(ctx, status, salesId);
    const audit = auditFields(ctx, isArchivedSlot(i), times);
    const lines = lineChoices(ctx, care.articles);
    const start = daysAfter(times.createdAt, faker.number.int({ min: 2, max: 7 }));
    rememberSalesOrder(ctx, { salesId, patient, integratedCareId: care._id, therapy, lines });
    const record = {
      _id: faker.string.uuid(),
      regionId: patient.regionId,
      patientId: patient._id,
      integratedCareId: care._id,
      ...fields,
      deliveryDate: dateOnly(start),
      startDate: dateOnly(start),
      endDate: dateOnly(daysAfter(start, 30)),
      deliveryOption: 'Standard',
      ...optional('doctorId', maybe(ctx, refs.doctorIds, 0.7)),
      deliveryAddress: patient.deliveryAddress,
      expressDelivery: faker.datatype.boolean(0.1),
      isHospitalPrescriber: false,
      isGroupOrder: false,
      hasFollowUpOrder: faker.datatype.boolean(0.5),
      tags: [],
      attachments: [],
      auditIds: [],
      orderedArticleLines: orderedArticleLines(ctx, lines, status, audit.timestamp),
      // The platform may return the therapy enumeration by name instead of by number.
      therapyId: i % 5 === 2 ? therapy.name : therapy.id,
      therapyTypeId: care.therapyTypeId,
      ...audit,
    };
    yield { resource: 'singleOrder', record };
  }
}

/** Direct orders: one-off orders outside a care arrangement. */
export function* directOrders(ctx: SeedContext): Generator<SeedRecord> {
  const { faker, refs } = ctx;
  for (let i = 0; i < ctx.sizes.directOrders; i++) {
    const patient = faker.helpers.arrayElement(refs.patients);
    const { therapy } = patient;
    const status = orderStatusAt(i);
    const salesId = hasSalesId(status) ? `AU-${ctx.next('salesId')}` : undefined;
    const { times, fields } = orderCommon(ctx, status, salesId);
    const audit = auditFields(ctx, isArchivedSlot(i), times);
    const lines = lineChoices(ctx, sample(ctx, articlesFor(ctx, therapy.id), 1, 3));
    rememberSalesOrder(ctx, { salesId, patient, therapy, lines });
    const record = {
      _id: faker.string.uuid(),
      regionId: patient.regionId,
      patientId: patient._id,
      ...fields,
      deliveryDate: dateOnly(daysAfter(times.createdAt, faker.number.int({ min: 1, max: 5 }))),
      deliveryOption: 'Standard',
      orderType: faker.helpers.arrayElement(Object.values(ORDER_TYPE)),
      deliveryAddress: patient.deliveryAddress,
      orderedArticleLines: orderedArticleLines(ctx, lines, status, audit.timestamp),
      therapyId: therapy.id,
      therapyTypeId: faker.helpers.arrayElement(therapy.therapyTypeIds),
      ...audit,
    };
    yield { resource: 'directOrder', record };
  }
}
