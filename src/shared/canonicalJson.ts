/**
 * `value` as canonical JSON: object keys sorted (by UTF-16 code units, as RFC 8785 sorts them),
 * no whitespace; strings and numbers as JSON.stringify writes them, which is RFC 8785's form
 * for the finite numbers a checked message holds. Two texts that mean the same JSON give the
 * same canonical text, whatever their key order and spacing. Keys like `__proto__` are only
 * written, never looked up. `undefined` is left out of objects and
 * written `null` in lists, as JSON.stringify does.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const fields = Object.entries(value)
    .filter(([, field]) => field !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, field]) => `${JSON.stringify(key)}:${canonicalJson(field)}`);
  return `{${fields.join(',')}}`;
}

const NO_KEYS: ReadonlySet<string> = new Set();

/**
 * Whether two values parsed from JSON have the same canonical JSON (canonicalJson) once the keys
 * `ignored` are left out of every object in them, found in one walk without writing either
 * text. A field that is absent differs from one that is null, as in the texts.
 */
export function sameJson(a: unknown, b: unknown, ignored: ReadonlySet<string> = NO_KEYS): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, index) => sameJson(item, b[index], ignored));
  }
  const left = a as Readonly<Record<string, unknown>>;
  const right = b as Readonly<Record<string, unknown>>;
  const counted = (fields: Readonly<Record<string, unknown>>, key: string): boolean =>
    fields[key] !== undefined && !ignored.has(key);
  let unmatched = 0;
  for (const key of Object.keys(left)) {
    if (!counted(left, key)) continue;
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key], ignored)) return false;
    unmatched += 1;
  }
  for (const key of Object.keys(right)) if (counted(right, key)) unmatched -= 1;
  return unmatched === 0;
}
