import { REDACTED, sensitiveKeySource } from './sensitiveKeys.js';

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

/** `key=value` and `key: value`, as in query strings and raw header dumps. */
const plainPair = new RegExp(
  `\\b(${sensitiveKeySource})(\\s*[:=]\\s*)((?:(?:Bearer|Basic)\\s+)?[^\\s&,;"']+)`,
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

/** Longest first, so a secret that contains another is replaced whole; empty ones are ignored. */
export function normaliseSecrets(secrets: readonly string[]): string[] {
  return [...new Set(secrets.filter((secret) => secret.length > 0))].sort(
    (a, b) => b.length - a.length,
  );
}
