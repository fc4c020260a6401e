import { DOCTOR_SPECIALTIES, DOCTOR_TITLES, PAYER_NAMES } from './catalog/places.js';
import type { SeedContext } from './context.js';
import { lanrFrom } from './numbers.js';
import { personOf, phoneOf, slug, unlinkedPlaceOf } from './people.js';
import type { SeedRecord } from './record.js';
import { auditFields, isArchivedSlot } from './time.js';

/** A prime that walks all 9,000,000 seven-digit tails once before it repeats. */
const IK_STRIDE = 104_729;
const IK_SPAN = 9_000_000;

/** Health insurers; their IK numbers are nine digits starting with 10 and never repeat. */
export function* payers(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  const offset = faker.number.int({ min: 0, max: IK_SPAN - 1 });
  for (let i = 0; i < ctx.sizes.payers; i++) {
    const _id = faker.string.uuid();
    const ikNumber = `10${1_000_000 + ((offset + i * IK_STRIDE) % IK_SPAN)}`;
    const name = PAYER_NAMES[i] ?? `BKK ${faker.person.lastName()}`;
    const place = unlinkedPlaceOf(ctx);
    ctx.refs.payers.push({ _id, ikNumber, name });
    const record = {
      _id,
      type: 1,
      name,
      phone: phoneOf(ctx),
      email: `service@${slug(name)}.de`,
      fax: phoneOf(ctx),
      website: `https://www.${slug(name)}.de`,
      ikNumber,
      ...place,
      ...auditFields(ctx, isArchivedSlot(i)),
    };
    yield { resource: 'payer', record };
  }
}

const KV_REGIONS = ['01', '02', '03', '17', '20', '38', '46', '51', '52', '71', '72', '78', '93'];

/** Doctors in private practice, with LANR (with its check digit) and BSNR. */
export function* doctors(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  for (let i = 0; i < ctx.sizes.doctors; i++) {
    const _id = faker.string.uuid();
    const person = personOf(ctx);
    const titleShort = faker.helpers.arrayElement(DOCTOR_TITLES);
    const [specialty, group] = faker.helpers.arrayElement(DOCTOR_SPECIALTIES);
    const specialist = person.gender === 2 ? 'Fachärztin' : 'Facharzt';
    const practice = `Praxis ${titleShort} ${person.lastName}`.replace('  ', ' ');
    const place = unlinkedPlaceOf(ctx);
    const email = `praxis@${slug(`${person.lastName} ${specialty}`)}.de`;
    const fax = phoneOf(ctx);
    ctx.refs.doctorIds.push(_id);
    const record = {
      _id,
      ...person,
      titleShort,
      title: `${specialist} für ${specialty}`,
      ...place,
      phone: phoneOf(ctx),
      fax,
      email,
      emailPrescriptionRequest: email,
      faxPrescriptionRequest: fax,
      website: `https://www.${slug(practice)}.de`,
      lifelongNumber: lanrFrom(faker.string.numeric(6), group),
      siteNumber: `${faker.helpers.arrayElement(KV_REGIONS)}${faker.string.numeric(7)}`,
      institution: { type: 1, id: faker.string.uuid(), description: practice },
      platformConnect: faker.datatype.boolean(0.4),
      isPartnerUser: faker.datatype.boolean(0.2),
      ...auditFields(ctx, isArchivedSlot(i)),
    };
    yield { resource: 'doctor', record };
  }
}
