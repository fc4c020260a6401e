import { MIN_SCRUBBED_SECRET_CHARS, scrubbedFromText } from '../log/scrubText.js';
import type { Problem } from './problems.js';
import { secretHolder, UNREAD_SECRET } from './secrets.js';

/**
 * The shortest `http.token` taken: the endpoint answers anyone who can reach it, so a short
 * bearer token is guessed in a handful of requests.
 */
const MIN_HTTP_TOKEN_CHARS = 16;

const MAKE_ONE = 'make one with: openssl rand -hex 32';

/** Spelled without case, `-`, `_` or spaces (see `spelledPlain`). */
const PLACEHOLDERS = new Set([
  'changeme',
  'secret',
  'password',
  'token',
  'demotoken',
  'test',
  'example',
  'replaceme',
  'yourtoken',
  'yourtokenhere',
  'placeholder',
]);

/** Placeholders written at length ("changeme-in-production", "replace-with-a-token"). */
const PLACEHOLDER_STARTS = ['changeme', 'replaceme', 'replacewith'];

function characters(count: number): string {
  return count === 1 ? '1 character' : `${count} characters`;
}

function spelledPlain(value: string): string {
  return value.toLowerCase().replace(/[-_\s]/g, '');
}

/** A value people write where a secret should go, and the first thing anyone guesses. */
function isPlaceholderSecret(value: string): boolean {
  const plain = spelledPlain(value);
  return (
    PLACEHOLDERS.has(plain) ||
    PLACEHOLDER_STARTS.some((start) => plain.startsWith(start)) ||
    // One character over and over: xxx, xxxxxxxxxxxxxxxx, 0000000000000000.
    /^(.)\1{2,}$/.test(plain)
  );
}

/** The bearer tokens our endpoint takes: the ERP's and the console's. */
const BEARER_TOKENS: readonly (readonly string[])[] = [
  ['http', 'token'],
  ['console', 'operatorToken'],
  ['console', 'readOnlyToken'],
];

/**
 * A weak bearer token (`http.token`, the console's), checked on the config tree once the secret
 * files are read (so a token from `<key>File` is checked too) and before the schema: it is then
 * listed with every other problem, which the schema's cross-section checks are not (they need a
 * valid config).
 */
export function weakHttpTokenProblems(tree: unknown): Problem[] {
  return BEARER_TOKENS.flatMap((location) => {
    const key = location.at(-1) ?? '';
    const holder = secretHolder(tree, location);
    const token = holder?.[key];
    if (typeof token !== 'string' || token === '' || token === UNREAD_SECRET) return [];
    const at = location.join('.');
    const weakness = tokenWeakness(
      token,
      holder?.[`${key}File`] !== undefined ? `${at}File` : undefined,
    );
    return weakness === undefined ? [] : [{ at, message: weakness }];
  });
}

/**
 * Why `token` is no good as a bearer token of our endpoint, or undefined when it is. The token
 * itself is never part of the text: the message goes to a terminal and into CI logs.
 */
function tokenWeakness(token: string, file: string | undefined): string | undefined {
  const what = file === undefined ? 'the token' : `the token read from ${file}`;
  if (isPlaceholderSecret(token)) {
    return `${what} is a well-known placeholder, the first value anyone tries; ${MAKE_ONE}`;
  }
  if (token.length < MIN_HTTP_TOKEN_CHARS) {
    return `${what} has ${characters(token.length)}, at least ${MIN_HTTP_TOKEN_CHARS} are needed: a short bearer token is guessed in a handful of requests; ${MAKE_ONE}`;
  }
  return undefined;
}

/**
 * The platform issues the API key, so a weak one is only told about, never refused: short, or
 * a word or a number, it is easier to guess, and the log hides it only where it stands as a
 * field's or header's value, never inside other text (scrubbedFromText: replacing a word there
 * would mangle every line that holds the word).
 */
export function weakApiKeyWarning(apiKey: string): string | undefined {
  if (scrubbedFromText(apiKey) || apiKey === UNREAD_SECRET) return undefined;
  const what =
    apiKey.length < MIN_SCRUBBED_SECRET_CHARS
      ? `has only ${characters(apiKey.length)}: a key this short`
      : `is a word or a number of ${characters(apiKey.length)}: such a key`;
  return `platform.apiKey ${what} is easy to guess, and the log masks it only as the value of a field such as apiKey, not inside other text; ask the platform for a longer one if it can issue one`;
}
