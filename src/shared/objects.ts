/**
 * The value with every `undefined` property left out, at any depth. zod's output marks absent
 * optional keys `undefined`, which `exactOptionalPropertyTypes` rightly tells apart from absent.
 */
export type Defined<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [K in keyof T]?: Defined<Exclude<T[K], undefined>> }
    : T;

export function withoutUndefined<T>(value: T): Defined<T> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return value as Defined<T>;
  const entries = Object.entries(value).filter(([, v]) => v !== undefined);
  return Object.fromEntries(entries.map(([k, v]) => [k, withoutUndefined(v)])) as Defined<T>;
}
