import type { SeedContext } from './context.js';

/** ASCII form of a German name for e-mail addresses and web sites. */
export function slug(text: string): string {
  return text
    .toLowerCase()
    .replaceAll('ä', 'ae')
    .replaceAll('ö', 'oe')
    .replaceAll('ü', 'ue')
    .replaceAll('ß', 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Street, postal code and city from the generated postal codes, so `postalCodeId` points to a
 * record; when the seed makes none, a made-up place without the id.
 */
export function placeOf(ctx: SeedContext): Record<string, string> {
  const { faker } = ctx;
  const address = faker.location.streetAddress();
  if (ctx.refs.postalCodes.length === 0) {
    return { address, postalCode: faker.location.zipCode(), city: faker.location.city() };
  }
  const place = faker.helpers.arrayElement(ctx.refs.postalCodes);
  return { address, ...place };
}

/** A place for records that carry postal code and city but no link to the postal code record. */
export function unlinkedPlaceOf(ctx: SeedContext): Record<string, string> {
  const place = placeOf(ctx);
  delete place.postalCodeId;
  return place;
}

export interface Person {
  /** Gender enumeration value; names are not published, 1 and 2 are used as male and female. */
  gender: number;
  firstName: string;
  lastName: string;
}

export function personOf(ctx: SeedContext): Person {
  const { faker } = ctx;
  const sex = faker.helpers.arrayElement(['female', 'male'] as const);
  return {
    gender: sex === 'male' ? 1 : 2,
    firstName: faker.person.firstName(sex),
    lastName: faker.person.lastName(),
  };
}

export function phoneOf(ctx: SeedContext): string {
  return ctx.faker.phone.number({ style: 'national' });
}

export function mobileOf(ctx: SeedContext): string {
  const prefix = ctx.faker.helpers.arrayElement(['0151', '0160', '0170', '0176']);
  return `${prefix} ${ctx.faker.string.numeric(8)}`;
}
