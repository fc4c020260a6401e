import {
  CARE_PROPOSAL_STATUS,
  SERIES_STATUS_NOT_TRANSMITTED,
  SERIES_STATUS_TRANSMITTED,
} from '../../contract/index.js';
import type { ArticleRef, PatientRef, SeedContext } from './context.js';
import { anyTherapy, articlesFor, maybe, optional, sample } from './pick.js';
import type { SeedRecord } from './record.js';
import {
  auditFields,
  changeTimes,
  dateOnly,
  daysAfter,
  daysBefore,
  isArchivedSlot,
} from './time.js';

/**
 * Which status filter group a care arrangement falls in, by position, so that a few records
 * fill each: every fourth is new (seriesStatus 0, not yet transmitted), every sixth ended.
 */
function careState(index: number) {
  return {
    transmitted: index % 4 !== 0,
    ended: index % 6 === 5,
    archived: isArchivedSlot(index),
  };
}

function proposedLine(ctx: SeedContext, article: ArticleRef, timestamp: string, startDate: string) {
  const { faker } = ctx;
  const unit = faker.helpers.arrayElement(article.packagingUnits);
  return {
    _id: faker.string.uuid(),
    timestamp,
    archived: false,
    articleId: article._id,
    articleCustomerNumber: article.customerNumber,
    isPrivateSale: false,
    periodStartDate: startDate,
    attributes: [],
    dosage: {
      packagingId: unit._id,
      quantity: faker.number.int({ min: 1, max: 10 }),
      duration: { amount: 1, timePeriod: 2 },
    },
    notAutomaticDelivery: false,
  };
}

function seriesData(ctx: SeedContext, patient: PatientRef, timestamp: string, salesId?: string) {
  const { faker } = ctx;
  const next = daysAfter(ctx.now, faker.number.int({ min: 1, max: 28 }));
  return {
    _id: faker.string.uuid(),
    timestamp,
    archived: false,
    ...optional('salesIdSeriesData', salesId),
    nextDeliveryDate: dateOnly(next),
    dayOfDelivery: next.getUTCDate(),
    deliveryAddress: patient.deliveryAddress,
    deliveryInformation: '',
    deliveryOption: 'Standard',
  };
}

/** Care arrangements: each patient one first, further ones for other therapies after. */
export function* integratedCares(ctx: SeedContext): Generator<SeedRecord> {
  const { faker, refs } = ctx;
  for (let i = 0; i < ctx.sizes.integratedCares; i++) {
    const patient = refs.patients[i % refs.patients.length] as PatientRef;
    const therapy = i < refs.patients.length ? patient.therapy : anyTherapy(ctx);
    const therapyTypeId = faker.helpers.arrayElement(therapy.therapyTypeIds);
    const state = careState(i);
    const salesId =
      state.transmitted && faker.datatype.boolean(0.7)
        ? `SA-${ctx.next('integratedCare')}`
        : undefined;
    const times = changeTimes(ctx, state.transmitted || state.ended);
    const audit = auditFields(ctx, state.archived, times);
    const startDate = dateOnly(daysBefore(times.createdAt, faker.number.int({ min: 0, max: 14 })));
    const articles = sample(ctx, articlesFor(ctx, therapy.id), 1, 4);
    const _id = faker.string.uuid();
    refs.integratedCares.push({ _id, patient, therapy, therapyTypeId, articles });
    const record = {
      _id,
      ...optional('salesId', salesId),
      patientId: patient._id,
      ...optional('doctorId', maybe(ctx, refs.doctorIds, 0.8)),
      ...optional('pharmacyId', maybe(ctx, refs.pharmacyIds, 0.2)),
      startDate,
      ...optional('deactivationReason', state.ended ? '1' : undefined),
      regionId: patient.regionId,
      diagnose: therapy.diagnosis,
      therapyId: therapy.id,
      therapyTypeId,
      isInitialCare: !state.transmitted,
      isMonthlyOrderActivated: true,
      aboStopped: state.ended,
      permanentExceedMaxAmount: false,
      // Its shape depends on the care type and is not published; an empty one is valid for all.
      calculations: {},
      seriesStatus: state.transmitted ? SERIES_STATUS_TRANSMITTED : SERIES_STATUS_NOT_TRANSMITTED,
      status: state.ended ? CARE_PROPOSAL_STATUS.Inactive : CARE_PROPOSAL_STATUS.Active,
      proposedArticleLines: articles.map((a) => proposedLine(ctx, a, audit.timestamp, startDate)),
      seriesData: [seriesData(ctx, patient, audit.timestamp, salesId)],
      ...audit,
    };
    yield { resource: 'integratedCare', record };
  }
}
