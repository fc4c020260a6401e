import type { ResourceName } from '../../contract/index.js';
import { INSTITUTION_NAMES, POSTAL_CODES, REGION_LABELS } from './catalog/places.js';
import type { SeedContext } from './context.js';
import { mobileOf, personOf, phoneOf, placeOf, slug, unlinkedPlaceOf } from './people.js';
import type { SeedRecord } from './record.js';
import { auditFields, changeTimes, isArchivedSlot } from './time.js';

/** A root region, up to five sub-regions under it, further areas under those. */
export function* regions(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  const all: string[] = [];
  for (let i = 0; i < ctx.sizes.regions; i++) {
    const _id = faker.string.uuid();
    const parent =
      i === 0 ? undefined : i <= REGION_LABELS.length ? all[0] : pickSubRegion(ctx, all);
    const label = i === 0 ? 'Gesamt' : (REGION_LABELS[i - 1] ?? `Gebiet ${faker.location.city()}`);
    all.push(_id);
    const { updatedAt } = changeTimes(ctx, false);
    const record = {
      _id,
      label,
      ...(parent === undefined ? {} : { parent }),
      doNotChange: i === 0,
      timestamp: updatedAt.toISOString(),
      archived: false,
    };
    yield { resource: 'region', record };
  }
  // Patients belong to the sub-regions where there are any, as on a real tenant.
  ctx.refs.regionIds = all.length > 1 ? all.slice(1) : all;
}

function pickSubRegion(ctx: SeedContext, all: readonly string[]): string | undefined {
  return ctx.faker.helpers.arrayElement(all.slice(1, REGION_LABELS.length + 1));
}

export function* postalCodes(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  for (let i = 0; i < ctx.sizes.postalCodes; i++) {
    const known = POSTAL_CODES[i];
    const postalCode = known?.[0] ?? faker.location.zipCode();
    const city = known?.[1] ?? faker.location.city();
    const _id = faker.string.uuid();
    const archived = isArchivedSlot(i);
    if (!archived) ctx.refs.postalCodes.push({ postalCodeId: _id, postalCode, city });
    yield {
      resource: 'postalCode',
      record: { _id, postalCode, city, ...auditFields(ctx, archived) },
    };
  }
}

const DEPARTMENTS = ['Außendienst', 'Homecare Nord', 'Wundmanagement', 'Stomatherapie'];

/** Field staff; their ids were drawn first because every record names its creator. */
export function* users(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  for (const [i, _id] of ctx.refs.userIds.entries()) {
    const person = personOf(ctx);
    const archived = isArchivedSlot(i);
    const record = {
      _id,
      active: !archived,
      salesPersonId: `VB-${String(101 + i).padStart(3, '0')}`,
      name: `${person.firstName} ${person.lastName}`,
      department: faker.helpers.arrayElement(DEPARTMENTS),
      firstName: person.firstName,
      lastName: person.lastName,
      ...placeOf(ctx),
      phone: phoneOf(ctx),
      mobilePhone: mobileOf(ctx),
      email: `${slug(person.firstName)}.${slug(person.lastName)}@homecare-demo.de`,
      fax: phoneOf(ctx),
      ...auditFields(ctx, archived),
    };
    yield { resource: 'users', record };
  }
}

type InstitutionKind = keyof typeof INSTITUTION_NAMES;

const INSTITUTION_SIZE = {
  hospital: 'hospitals',
  nursingHome: 'nursingHomes',
  nursingService: 'nursingServices',
  pharmacy: 'pharmacies',
} as const;

const INSTITUTION_REFS = {
  hospital: 'hospitalIds',
  nursingHome: 'nursingHomeIds',
  nursingService: 'nursingServiceIds',
  pharmacy: 'pharmacyIds',
} as const;

/** Hospitals, nursing homes, nursing services and pharmacies share one shape. */
export function* institutions(ctx: SeedContext, kind: InstitutionKind): Generator<SeedRecord> {
  const { faker } = ctx;
  for (let i = 0; i < ctx.sizes[INSTITUTION_SIZE[kind]]; i++) {
    const _id = faker.string.uuid();
    const place = unlinkedPlaceOf(ctx);
    const name = faker.helpers
      .arrayElement(INSTITUTION_NAMES[kind])
      .replace('{city}', place.city ?? '')
      .replace('{lastName}', faker.person.lastName());
    ctx.refs[INSTITUTION_REFS[kind]].push(_id);
    const record = {
      _id,
      name,
      ...place,
      phone: phoneOf(ctx),
      fax: phoneOf(ctx),
      email: `kontakt@${slug(name)}.de`,
      website: `https://www.${slug(name)}.de`,
      platformConnect: faker.datatype.boolean(0.3),
      ...auditFields(ctx, isArchivedSlot(i)),
    };
    yield { resource: kind satisfies ResourceName, record };
  }
}
