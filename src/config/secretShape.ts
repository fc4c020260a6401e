import type { Problem } from './problems.js';
import { secretHolder, UNREAD_SECRET } from './secrets.js';

/**
 * The secrets that go into a header as they are written: the platform's key, the endpoint's
 * bearer token, the ERP's bearer token. A password goes base64-encoded (Basic auth) and may
 * hold anything.
 */
const HEADER_SECRETS: readonly { location: readonly string[]; what: string }[] = [
  { location: ['platform', 'apiKey'], what: 'key' },
  { location: ['http', 'token'], what: 'token' },
  { location: ['erp', 'rest', 'auth', 'token'], what: 'token' },
];

const NAMED: Readonly<Record<string, string>> = {
  ' ': 'a space',
  '\t': 'a tab',
  '\u00a0': 'a no-break space',
};

const codePoint = (char: string) =>
  `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;

/** What is wrong with one character of a header secret, or undefined when it is fine. */
function badCharacter(char: string): string | undefined {
  const named = NAMED[char];
  if (named !== undefined) return named;
  if (/\p{Cc}/u.test(char)) return `a control character (${codePoint(char)}`;
  if (/[\s\p{Z}]/u.test(char)) return `a space character (${codePoint(char)}`;
  if (char > '\u007e') return `a character outside ASCII (${char}`;
  return undefined;
}

/** The first bad character of `secret` and where it stands (counted from 1), without the rest. */
function firstBad(secret: string): string | undefined {
  let position = 0;
  for (const char of secret) {
    position += 1;
    const bad = badCharacter(char);
    if (bad === undefined) continue;
    return bad.includes('(') ? `${bad}, character ${position})` : `${bad} (character ${position})`;
  }
  return undefined;
}

/**
 * Keys and tokens that can never match, refused with the reason: whitespace, a control
 * character or a character outside ASCII. An HTTP header carries none of them as written (undici
 * refuses a control character, a proxy drops a trailing space, a server compares bytes), so
 * every request would be refused or sent with another key than meant; most often the value
 * came from a file or variable with a stray space, tab or line break. Checked on the tree once
 * the secret files are read; the secret itself is never part of the text.
 */
export function secretShapeProblems(tree: unknown): Problem[] {
  return HEADER_SECRETS.flatMap(({ location, what }) => {
    const key = location.at(-1) ?? '';
    const holder = secretHolder(tree, location);
    const secret = holder?.[key];
    if (typeof secret !== 'string' || secret === '' || secret === UNREAD_SECRET) return [];
    const bad = firstBad(secret);
    if (bad === undefined) return [];
    const at = location.join('.');
    const from = holder?.[`${key}File`] === undefined ? '' : ` read from ${at}File`;
    const source = from === '' ? 'the variable or the config' : `${at}File`;
    return [
      {
        at,
        message: `the ${what}${from} holds ${bad}: a header cannot carry it, so it could never match; remove it from ${source}`,
      },
    ];
  });
}
