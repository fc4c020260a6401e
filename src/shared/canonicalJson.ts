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
