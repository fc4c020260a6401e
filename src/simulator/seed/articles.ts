import { PACKAGING_UNITS, THERAPIES, type Therapy } from './catalog/therapies.js';
import type { ArticleRef, SeedContext } from './context.js';
import { ean13From, pznFrom } from './numbers.js';
import { anyTherapy, maybe, optional, therapyAt } from './pick.js';
import type { SeedRecord } from './record.js';
import { auditFields, isArchivedSlot } from './time.js';

/** A fresh PZN with a valid check digit (seven random digits whose check is 10 are skipped). */
function pzn(ctx: SeedContext): string {
  for (;;) {
    const candidate = pznFrom(ctx.faker.string.numeric({ length: 7, allowLeadingZeros: true }));
    if (candidate !== undefined) return candidate;
  }
}

const price = (value: number): string => value.toFixed(2);

/** One to three packaging units, from the single piece up, each with its own PZN. */
function packagingUnits(ctx: SeedContext) {
  const count = ctx.faker.number.int({ min: 1, max: PACKAGING_UNITS.length });
  return PACKAGING_UNITS.slice(0, count).map(({ unit, quantities }) => ({
    _id: ctx.faker.string.uuid(),
    pcn: pzn(ctx),
    quantity: ctx.faker.helpers.arrayElement(quantities),
    unit,
    archived: false,
  }));
}

function therapyIdsOf(ctx: SeedContext, main: Therapy): number[] {
  const second = ctx.faker.datatype.boolean(0.15) ? anyTherapy(ctx).id : main.id;
  return [...new Set([main.id, second])];
}

/** Per therapy, the therapy groups (type 2) an article of it is filed under, else any group. */
function productGroupChoices(ctx: SeedContext): Map<number, readonly string[]> {
  const all = ctx.refs.productGroups;
  return new Map(
    THERAPIES.map((therapy) => {
      const fitting = all.filter((g) => g.type === 2 && g.therapyId === therapy.id);
      return [therapy.id, (fitting.length > 0 ? fitting : all).map((g) => g._id)];
    }),
  );
}

export function* articles(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  const groupChoices = ctx.offers('productGroup')
    ? productGroupChoices(ctx)
    : new Map<number, readonly string[]>();
  for (let i = 0; i < ctx.sizes.articles; i++) {
    const therapy = anyTherapy(ctx);
    const _id = faker.string.uuid();
    const units = packagingUnits(ctx);
    const name = faker.helpers.arrayElement(therapy.articleNames);
    const customerNumber = `A-${100001 + i}`;
    const therapyIds = therapyIdsOf(ctx, therapy);
    const listPrice = faker.number.float({ min: 0.4, max: 60, fractionDigits: 2 });
    const archived = isArchivedSlot(i);
    const aidNumber =
      therapy.aidGroup &&
      `${therapy.aidGroup}.${faker.string.numeric(2)}.1${faker.string.numeric(3)}`;
    const record = {
      _id,
      pcn: units[0]?.pcn,
      name,
      description: `${name} für die ${therapy.label}`,
      manufacturer: faker.helpers.arrayElement(therapy.manufacturers),
      manufacturerNumber: faker.string.alphanumeric({ length: 8, casing: 'upper' }),
      customerNumber,
      ...optional('medicalAidPositionNumber', aidNumber),
      ean: ean13From(`40${faker.string.numeric({ length: 10, allowLeadingZeros: true })}`),
      size: faker.helpers.arrayElement(['S', 'M', 'L', 'XL', 'Standard']),
      ...optional('productGroupId', maybe(ctx, groupChoices.get(therapy.id) ?? [], 1)),
      therapyIds,
      billableTherapies: therapyIds,
      prescriptionType: therapy.prescriptionType,
      packagingUnits: units,
      listPrice: price(listPrice),
      pharmacyPrice: price(listPrice * 1.19),
      fixedPrice: price(listPrice * 0.9),
      purchaseRating: faker.number.int({ min: 1, max: 5 }),
      inventoryType: faker.helpers.arrayElement([1, 2]),
      stars: faker.number.int({ min: 0, max: 5 }),
      attributes: [],
      requiresSerialnumber: false,
      requiresBatchnumber: therapy.name === 'EnteralNutrition',
      requiresValidToDate: therapy.name === 'EnteralNutrition',
      directOrder: faker.datatype.boolean(0.5),
      pharmacyOnly: false,
      ...auditFields(ctx, archived),
    };
    if (!archived) remember(ctx, { _id, customerNumber, name, therapyIds, packagingUnits: units });
    yield { resource: 'article', record };
  }
}

/** Only articles still in the assortment are proposed and ordered. */
function remember(ctx: SeedContext, article: ArticleRef): void {
  ctx.refs.articles.push(article);
  for (const therapyId of article.therapyIds) {
    const list = ctx.refs.articlesByTherapy.get(therapyId) ?? [];
    list.push(article);
    ctx.refs.articlesByTherapy.set(therapyId, list);
  }
}

/**
 * Product groups in a valid hierarchy: a fifth are top-level groups (OWG, no parent), about
 * half the rest groups (WG) under an OWG, the others therapy groups (TWG) under either.
 */
export function* productGroups(ctx: SeedContext): Generator<SeedRecord> {
  const { faker } = ctx;
  const total = ctx.sizes.productGroups;
  const roots = Math.max(1, Math.ceil(total / 5));
  const groups = Math.ceil((total - roots) / 2);
  const made: Array<{ _id: string; type: number; name: string; therapy: Therapy; number: number }> =
    [];
  for (let i = 0; i < total; i++) {
    const type = i < roots ? 0 : i < roots + groups ? 1 : 2;
    const parent =
      type === 0 ? undefined : faker.helpers.arrayElement(made.filter((g) => g.type < type));
    const therapy = parent?.therapy ?? therapyAt(i);
    const number = parent ? parent.number * 100 + i : 10 + i;
    const name =
      type === 0
        ? therapy.label
        : `${parent?.name ?? therapy.label} ${type === 1 ? 'Gruppe' : 'Therapiegruppe'} ${i}`;
    const _id = faker.string.uuid();
    made.push({ _id, type, name, therapy, number });
    ctx.refs.productGroups.push({ _id, type, therapyId: therapy.id });
    const record = {
      _id,
      number,
      ...optional('medicalAidPositionNumber', therapy.aidGroup),
      name,
      description: `${['Obergruppe', 'Warengruppe', 'Therapiegruppe'][type] ?? ''} ${therapy.label}`,
      ...optional('parentId', parent?._id),
      type,
      attributeTemplateIds: [],
      ...auditFields(ctx, false),
    };
    yield { resource: 'productGroup', record };
  }
}
