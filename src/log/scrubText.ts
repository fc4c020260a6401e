import { REDACTED, isSensitiveKey, sensitiveKeySource } from './sensitiveKeys.js';

/**
 * `"key": value` pairs inside text, such as a response body excerpt carried by an error, also
 * JSON escaped once more. A string value cut off at the end of the text (an excerpt) is taken
 * to the end.
 */
const jsonPair = new RegExp(
  `(\\\\?"${sensitiveKeySource}\\\\?"\\s*:\\s*)` +
    `(\\\\"(?:[^\\\\]|\\\\[^"])*(?:\\\\"|$)|"(?:[^"\\\\]|\\\\.)*(?:"|$)|-?\\d[\\d.eE+-]*|true|false)`,
  'gi',
);

/**
 * `key=value` and `key: value`, as in query strings and raw header dumps. Not a key named as the
 * last step of a config path (`platform.apiKey: variable … is not set`, a problem's reason): the
 * words after it are the reason, not the key's value.
 */
const plainPair = new RegExp(
  `(?<![.\\w-])(${sensitiveKeySource})(\\s*[:=]\\s*)((?:(?:Bearer|Basic)\\s+)?[^\\s&,;"']+)`,
  'gi',
);

const bearer = /\b(Bearer|Basic)\s+[\w.~+/=-]+/gi;

/**
 * Removes credentials and personal values that hide inside free text. `secrets` are the
 * configured values themselves (API key, tokens), replaced wherever they occur.
 */
export function scrubText(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) {
    result = result.split(secret).join(REDACTED);
  }
  return result
    .replace(jsonPair, (_match, key: string, value: string) =>
      value.startsWith('\\') ? `${key}\\"${REDACTED}\\"` : `${key}"${REDACTED}"`,
    )
    .replace(plainPair, `$1$2${REDACTED}`)
    .replace(bearer, `$1 ${REDACTED}`);
}

/** The fewest characters of a secret that mixes letters and digits, to be found in free text. */
export const MIN_SCRUBBED_SECRET_CHARS = 8;
/** The fewest characters of any other secret (letters only: a word, or a name of words). */
const MIN_SCRUBBED_PLAIN_CHARS = 20;

/**
 * Whether a configured secret is removed wherever it stands in free text (a message, a URL, an
 * answer): only when it cannot be part of ordinary words, numbers or paths. That is a secret of
 * at least MIN_SCRUBBED_SECRET_CHARS that holds both a letter and a digit (`hs-live-4c7e19…`,
 * `erp-pass-0815`: random-looking), or one of at least MIN_SCRUBBED_PLAIN_CHARS of any kind.
 * A key `homecare` replaced in text would turn every "homecare-sync started" into
 * "[redacted]-sync started"; `12345678` would take numbers apart, `t` any word. Such a secret is
 * hidden where it stands as a field's or header's value (`apiKey`, `token`, `authorization`:
 * the key-based redaction), never inside other text; `config check` warns about a platform key
 * of that kind (secretStrength.ts).
 */
export function scrubbedFromText(secret: string): boolean {
  if (secret.length >= MIN_SCRUBBED_PLAIN_CHARS) return true;
  return secret.length >= MIN_SCRUBBED_SECRET_CHARS && /\p{L}/u.test(secret) && /\d/.test(secret);
}

/**
 * The configured secrets to replace wherever they occur in a line (`scrubText`): those
 * `scrubbedFromText`, longest first, so a secret that contains another is replaced whole.
 */
export function normaliseSecrets(secrets: readonly string[]): string[] {
  return [...new Set(secrets.filter(scrubbedFromText))].sort((a, b) => b.length - a.length);
}

/** Shorter values of other fields (a status, a unit) would take words out of any text. */
const MIN_OTHER_CHARS = 4;
const MAX_DEPTH = 16;

function collect(
  value: unknown,
  key: string,
  personal: Set<string>,
  other: Set<string>,
  depth: number,
) {
  if (depth > MAX_DEPTH) return;
  if (typeof value === 'string' || typeof value === 'number') {
    const text = String(value).trim();
    if (isSensitiveKey(key)) {
      if (text.length > 1) personal.add(text);
    } else if (typeof value === 'string' && text.length >= MIN_OTHER_CHARS) other.add(text);
    return;
  }
  if (value === null || typeof value !== 'object') return;
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item: unknown) => [key, item])
    : Object.entries(value);
  for (const [child, item] of entries) collect(item, child, personal, other, depth + 1);
}

/**
 * The values of a record's personal (and credential) fields, longest first: to remove from text
 * that may quote them in any form (an answer, an error) while the record's other values (ids,
 * keys, statuses) stay readable. Pass the result to `scrubText` as its values to replace.
 */
export function personalValues(record: unknown): string[] {
  const personal = new Set<string>();
  collect(record, '', personal, new Set(), 0);
  return [...personal].sort((a, b) => b.length - a.length);
}

/**
 * The values of a record we sent, to remove from what the other side answers about it: an
 * ERP's plain-text error may quote the record in any form, so `"key": value` patterns are not
 * enough. Personal fields' values come first (each longest first), then every other string
 * value of at least four characters; `keep` (the record's id and version, which messages name
 * on purpose) stays. Pass the result to `scrubText` as its values to replace.
 */
export function valuesToScrub(record: unknown, keep: readonly string[]): string[] {
  const personal = new Set<string>();
  const other = new Set<string>();
  collect(record, '', personal, other, 0);
  const longestFirst = (values: Set<string>) =>
    [...values].filter((v) => !keep.includes(v)).sort((a, b) => b.length - a.length);
  return [...longestFirst(personal), ...longestFirst(other).filter((v) => !personal.has(v))];
}
