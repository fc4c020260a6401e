import { errorMessage } from './errors.js';
import { jsonBoundsProblem, type JsonBounds } from './jsonBounds.js';

export type StrictJson =
  | { ok: true; value: unknown }
  /** `syntax`: the text is no JSON at all; else it is, but says what is refused. */
  | { ok: false; reason: string; syntax: boolean };

/**
 * The one way a JSON message from the ERP is read, by the file inbox and `POST /erp/<kind>`
 * alike: first one pass over the text (jsonBounds.ts) that bounds its shape and refuses what a
 * parser takes silently (a key twice, `__proto__`, a number a double cannot hold), then
 * `JSON.parse`, which is native: a hand-written parser would cost several times as much for
 * every message, and these checks need only the pass the bounds make anyway.
 */
export function readStrictJson(text: string, bounds: JsonBounds): StrictJson {
  const problem = jsonBoundsProblem(text, bounds);
  if (problem !== undefined) return { ok: false, reason: problem, syntax: false };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${errorMessage(error)}`, syntax: true };
  }
}
