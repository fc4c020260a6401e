import { HomecareError } from '../shared/errors.js';

const maxDepth = 16;

/**
 * Turns what a caller logs into plain JSON-ready data: errors (with their `cause`, extra
 * properties such as `headers` and `body`, and aggregated errors) become objects, `Map`s and
 * `Headers` become objects, cycles and very deep nesting are cut. JSON.stringify alone would drop
 * an error's message and a `Headers` object's entries.
 */
export function toPlainValue(value: unknown): unknown {
  return plain(value, new WeakSet(), 0);
}

function plain(value: unknown, seen: WeakSet<object>, depth: number): unknown {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'bigint' ? value.toString() : value;
  }
  if (seen.has(value)) return '[circular]';
  if (depth >= maxDepth) return '[too deep]';
  seen.add(value);
  try {
    return plainObject(value, seen, depth + 1);
  } finally {
    seen.delete(value);
  }
}

function plainObject(value: object, seen: WeakSet<object>, depth: number): unknown {
  if (value instanceof Error) return plainError(value, seen, depth);
  if (Array.isArray(value)) return value.map((item: unknown) => plain(item, seen, depth));
  if (value instanceof Map) return plainEntries(value.entries(), seen, depth);
  if (hasEntries(value)) return plainEntries(value.entries(), seen, depth);
  if ('toJSON' in value && typeof value.toJSON === 'function') return value;
  return plainEntries(Object.entries(value), seen, depth);
}

/**
 * Whether an error is an expected condition, whose stack tells an operator nothing: one of our
 * typed errors (a wait, an outage, a refusal), or a system or undici failure (`ECONNREFUSED`,
 * `UND_ERR_SOCKET`) such an error carries as its cause. Anything else is a bug, logged with its
 * stack (design.md #27.7: stacks only for bugs).
 */
function expected(error: Error): boolean {
  if (error instanceof HomecareError) return true;
  const { code } = error as { code?: unknown };
  return typeof code === 'string' && (/^E[A-Z0-9]+$/.test(code) || code.startsWith('UND_ERR'));
}

function plainError(error: Error, seen: WeakSet<object>, depth: number): Record<string, unknown> {
  const result: Record<string, unknown> = {
    type: error.constructor.name,
    message: error.message,
    ...(expected(error) ? {} : { stack: error.stack }),
  };
  for (const [key, item] of Object.entries(error)) {
    if (key !== 'name' && key !== 'message' && key !== 'stack') {
      result[key] = plain(item, seen, depth);
    }
  }
  // `cause` set through the Error constructor is not enumerable.
  if (error.cause !== undefined) result.cause = plain(error.cause, seen, depth);
  return result;
}

/** `Headers`, `URLSearchParams` and the like: string keys to values, read through entries(). */
function hasEntries(value: object): value is { entries(): Iterable<[unknown, unknown]> } {
  return (
    'entries' in value &&
    typeof value.entries === 'function' &&
    'get' in value &&
    typeof value.get === 'function'
  );
}

function plainEntries(
  entries: Iterable<[unknown, unknown]>,
  seen: WeakSet<object>,
  depth: number,
): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, item] of entries) {
    result[String(key)] = plain(item, seen, depth);
  }
  return result;
}
