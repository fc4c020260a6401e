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

/**
 * An object that inherits nothing, for objects whose keys come from outside (a mapping's
 * target, a CSV header): a key `__proto__` or `constructor` is then a key like any other, and
 * nothing written through one reaches Object.prototype. Made with `new` over an empty prototype
 * that has none itself, rather than by `Object.create(null)`, whose objects V8 keeps in its slow
 * dictionary layout (5 to 8 % of the CPU of a mapped inbox file).
 */
function NoPrototype(): void {}
NoPrototype.prototype = Object.create(null) as object;
const Bare = NoPrototype as unknown as new () => Record<string, unknown>;
export const bareObject = (): Record<string, unknown> => new Bare();

export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The value at a dot path such as `metadata.patientId`; undefined where an object is missing. */
export function valueAt(record: unknown, path: string): unknown {
  let current = record;
  for (const key of path.split('.')) {
    if (!isPlainObject(current)) return undefined;
    current = current[key];
  }
  return current;
}
