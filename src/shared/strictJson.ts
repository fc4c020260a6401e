import { errorMessage } from './errors.js';
import { jsonBoundsProblem, type JsonBounds } from './jsonBounds.js';
import { invalidAt } from './jsonSyntax.js';

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
    return { ok: false, reason: notJson(text, error), syntax: true };
  }
}

/**
 * Why a text is not JSON, by where it stops being JSON. JSON.parse's own message may quote the
 * text ("Unexpected token 'K', "{"a": Kettenis}" is not valid JSON"), and the reason goes to the
 * log, where no patient's value may go; the report beside a file points at the same place.
 */
function notJson(text: string, error: unknown): string {
  const at = invalidAt(text);
  if (at === undefined) return `not valid JSON: ${errorMessage(error)}`;
  return at >= text.length
    ? 'not valid JSON: the text ends before the JSON does'
    : `not valid JSON from character ${at + 1} on`;
}
