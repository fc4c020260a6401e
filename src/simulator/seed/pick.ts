import { THERAPIES, type Therapy } from './catalog/therapies.js';
import type { ArticleRef, SeedContext } from './context.js';

/**
 * Up to `max` (at least `min`, as far as there are) distinct entries. Unlike
 * faker.helpers.arrayElements this does not copy the array, which matters for 100,000 articles.
 */
export function sample<T>(ctx: SeedContext, items: readonly T[], min: number, max: number): T[] {
  const wanted = Math.min(items.length, ctx.faker.number.int({ min, max }));
  const chosen = new Set<number>();
  while (chosen.size < wanted) chosen.add(ctx.faker.number.int({ max: items.length - 1 }));
  return [...chosen].map((index) => items[index] as T);
}

/** An entry with the given probability, else undefined (and always undefined when empty). */
export function maybe<T>(
  ctx: SeedContext,
  items: readonly T[],
  probability: number,
): T | undefined {
  if (items.length === 0 || !ctx.faker.datatype.boolean(probability)) return undefined;
  return ctx.faker.helpers.arrayElement(items);
}

/** `{ [key]: value }` when value is defined, `{}` otherwise: optional fields stay absent. */
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}

/** The therapies in turn, for records that should cover all of them. */
export function therapyAt(index: number): Therapy {
  return THERAPIES[index % THERAPIES.length] ?? THERAPIES[0];
}

export function anyTherapy(ctx: SeedContext): Therapy {
  return ctx.faker.helpers.arrayElement(THERAPIES);
}

/** Articles for `therapyId`, or any article when the seed made none for it. */
export function articlesFor(ctx: SeedContext, therapyId: number): readonly ArticleRef[] {
  const forTherapy = ctx.refs.articlesByTherapy.get(therapyId);
  return forTherapy && forTherapy.length > 0 ? forTherapy : ctx.refs.articles;
}
