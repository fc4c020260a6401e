import type { SeedContext } from './context.js';
import { anyTherapy, articlesFor, sample, therapyAt } from './pick.js';
import type { SeedRecord } from './record.js';
import { auditFields, dateOnly, isArchivedSlot } from './time.js';

/** Billing groups of articles a supply contract covers (variant A). */
export function* contractArticleGroups(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  for (let i = 0; i < ctx.sizes.contractArticleGroups; i++) {
    const therapy = therapyAt(i);
    const _id = faker.string.uuid();
    ctx.refs.contractArticleGroupIds.push(_id);
    const record = {
      _id,
      name: `Vertragsgruppe ${therapy.label} ${i + 1}`,
      customerNumber: `VG-${1001 + i}`,
      articleIds: sample(ctx, articlesFor(ctx, therapy.id), 2, 8).map((a) => a._id),
      productGroupIds: sample(ctx, ctx.refs.productGroups, 0, 2).map((g) => g._id),
      ...auditFields(ctx, isArchivedSlot(i)),
    };
    yield { resource: 'contractArticleGroup', record };
  }
}

/** Supply contracts with health insurers (variant A). */
export function* insuranceContracts(ctx: SeedContext): Generator<SeedRecord> {
  const { faker, now } = ctx;
  for (let i = 0; i < ctx.sizes.insuranceContracts; i++) {
    const therapy = anyTherapy(ctx);
    const payers = sample(ctx, ctx.refs.payers, 1, 3);
    const payerName = payers[0]?.name ?? 'alle Kassen';
    const year = now.getUTCFullYear();
    const _id = faker.string.uuid();
    const record = {
      _id,
      name: `${therapy.label} ${payerName}`,
      description: `Versorgungsvertrag ${therapy.label} nach § 127 SGB V`,
      validFrom: dateOnly(new Date(Date.UTC(year - 1, 0, 1))),
      validTo: dateOnly(new Date(Date.UTC(year + 1, 11, 31))),
      insuranceContractName: `${payerName} ${therapy.label} ${year - 1}`,
      pricingBasis: faker.helpers.arrayElement(['Monatspauschale', 'Einzelpreis']),
      flatChargeText: 'Versorgungspauschale',
      therapyId: therapy.id,
      pricingModelType: faker.helpers.arrayElement([0, 1]),
      billingType: faker.helpers.arrayElement([0, 1]),
      ageLimit: 0,
      ageLimitLower: 0,
      therapyTypeIds: [...therapy.therapyTypeIds],
      payerIds: payers.map((p) => p._id),
      notPayingPayerIds: [],
      productGroupIds: [],
      contractArticleGroupIds: sample(ctx, ctx.refs.contractArticleGroupIds, 0, 2),
      isSelfPayer: false,
      costEstimateRequired: faker.datatype.boolean(0.3),
      approvalObligation: faker.datatype.boolean(0.3),
      periodOnPrescriptionNecessary: faker.datatype.boolean(0.5),
      flatChargeTextAllowed: true,
      generalContract: i === 0,
      salesContracts: [
        {
          name: `${payerName} ${therapy.label}`,
          careType: 1,
          customerContractId: `KV-${2001 + i}`,
          customerContractVersion: 1,
          customerContractPeriod: String(year),
        },
      ],
      maximumAmountForProductGroups: [],
      visitInterval: { amount: 3, timePeriod: 2, frequency: 1, annotation: 'Quartalsbesuch' },
      maxPermanentPrescriptionPeriod: { amount: 12, timePeriod: 2 },
      requiredTemplates: [],
      ...auditFields(ctx, isArchivedSlot(i)),
    };
    yield { resource: 'insuranceContract', record };
  }
}
