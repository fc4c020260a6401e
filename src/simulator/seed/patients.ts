import type { SeedContext } from './context.js';
import { DELIVERY_INFORMATION } from './catalog/texts.js';
import { mobileOf, personOf, phoneOf, placeOf, slug, type Person } from './people.js';
import { anyTherapy, maybe, optional } from './pick.js';
import type { SeedRecord } from './record.js';
import { auditFields, dateOnly, daysBefore, isArchivedSlot } from './time.js';

/** Every sixth patient is new on the platform: the ERP has not given it a customerId yet. */
export function isNewPatientSlot(index: number): boolean {
  return index % 6 === 5;
}

function insurance(ctx: SeedContext, timestamp: string) {
  const { faker } = ctx;
  const payer = maybe(ctx, ctx.refs.payers, 1);
  if (!payer) return {};
  const hasCopayment = faker.datatype.boolean(0.7);
  return {
    payerInstitutionCode: payer.ikNumber,
    payer: {
      _id: faker.string.uuid(),
      payerId: payer._id,
      payerType: 1,
      numberOfInsured: `${faker.string.alpha({ casing: 'upper' })}${faker.string.numeric(9)}`,
      hasCopayment,
      ...optional(
        'copaymentFromDate',
        hasCopayment ? `${ctx.now.getUTCFullYear()}-01-01` : undefined,
      ),
      hasNoEGKImage: false,
      hasNoCopaymentImage: !hasCopayment,
      timestamp,
      archived: false,
    },
  };
}

const ROLES = ['Tochter', 'Sohn', 'Ehepartner', 'Gesetzlicher Betreuer'];

function careGivers(ctx: SeedContext, lastName: string, timestamp: string) {
  const { faker } = ctx;
  return Array.from({ length: faker.number.int({ max: 2 }) }, () => {
    const person = personOf(ctx);
    const role = faker.helpers.arrayElement(ROLES);
    return {
      _id: faker.string.uuid(),
      ...person,
      lastName: role === 'Gesetzlicher Betreuer' ? person.lastName : lastName,
      title: 0,
      type: role === 'Gesetzlicher Betreuer' ? 2 : 1,
      role,
      ...placeOf(ctx),
      phone: phoneOf(ctx),
      mobilePhone: mobileOf(ctx),
      timestamp,
      archived: false,
    };
  });
}

function contact(ctx: SeedContext, person: Person) {
  const { faker } = ctx;
  const email = faker.datatype.boolean(0.3)
    ? `${slug(person.firstName)}.${slug(person.lastName)}@${faker.helpers.arrayElement(['web.de', 'gmx.de', 't-online.de'])}`
    : undefined;
  return {
    phone: phoneOf(ctx),
    ...optional('mobilePhone', faker.datatype.boolean(0.4) ? mobileOf(ctx) : undefined),
    ...optional('email', email),
  };
}

export function* patients(ctx: SeedContext): Generator<SeedRecord> {
  const { faker, refs } = ctx;
  for (let i = 0; i < ctx.sizes.patients; i++) {
    const _id = faker.string.uuid();
    const person = personOf(ctx);
    const place = placeOf(ctx);
    const regionId = faker.helpers.arrayElement(refs.regionIds);
    const therapy = anyTherapy(ctx);
    const archived = isArchivedSlot(i);
    const audit = auditFields(ctx, archived);
    const deliveryAddress = {
      gender: person.gender,
      title: 0,
      name: `${person.firstName} ${person.lastName}`,
      ...place,
    };
    refs.patients.push({ _id, regionId, therapy, deliveryAddress });
    const record = {
      _id,
      ...person,
      title: 0,
      ...place,
      ...optional(
        'additionalAddress',
        maybe(ctx, ['2. OG links', 'Hinterhaus', 'bei Familie Schulz'], 0.2),
      ),
      ...contact(ctx, person),
      ...optional('customerId', isNewPatientSlot(i) ? undefined : `K-${200001 + i}`),
      birthday: dateOnly(faker.date.birthdate({ mode: 'age', min: 45, max: 98 })),
      fieldNurseId: faker.helpers.arrayElement(refs.userIds),
      additionalUserIds: [],
      regionId,
      ...insurance(ctx, audit.createdAt),
      ...optional('primaryDoctorId', maybe(ctx, refs.doctorIds, 0.9)),
      ...optional('nursingHomeId', maybe(ctx, refs.nursingHomeIds, 0.2)),
      ...optional('nursingServiceId', maybe(ctx, refs.nursingServiceIds, 0.4)),
      ...optional('pharmacyId', maybe(ctx, refs.pharmacyIds, 0.3)),
      ...optional('erpStatus', maybe(ctx, ['Liefersperre'] as const, 0.05)),
      ...(archived
        ? { deactivationReason: 1, deactivationDate: dateOnly(daysBefore(ctx.now, 3)) }
        : {}),
      ivTherapy: false,
      classification: 'GKV',
      changeInSupplier: faker.datatype.boolean(0.1),
      deliveryAddress,
      deliveryInformation: {
        startTime: faker.helpers.arrayElement(['08:00', '10:00', '13:00']),
        deliveryInformation: faker.helpers.arrayElement(DELIVERY_INFORMATION),
        deliveryNote: '',
        deliveryOption: 'Standard',
      },
      careDegree: faker.number.int({ min: 1, max: 5 }),
      careGivers: careGivers(ctx, person.lastName, audit.createdAt),
      ...audit,
    };
    yield { resource: 'patient', record };
  }
}
