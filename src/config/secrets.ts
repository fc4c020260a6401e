import { resolve } from 'node:path';
import { readBounded, SECRET_FILE_MAX_BYTES, type BoundedRead } from './boundedRead.js';
import type { Problem } from './problems.js';

/** Where a secret may stand, each beside a `<key>File` that reads it from a file instead. */
export const SECRET_LOCATIONS: readonly (readonly string[])[] = [
  ['platform', 'apiKey'],
  ['http', 'token'],
  ['console', 'operatorToken'],
  ['console', 'readOnlyToken'],
  ['erp', 'rest', 'auth', 'token'],
  ['erp', 'rest', 'auth', 'password'],
  ['alerts', 'webhook', 'url'],
  ['alerts', 'mail', 'smtp'],
];

type Tree = Record<string, unknown>;

function isTree(value: unknown): value is Tree {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The object that holds the secret at `location` (e.g. `platform` for `platform.apiKey`). */
export function secretHolder(tree: unknown, location: readonly string[]): Tree | undefined {
  let node = tree;
  for (const key of location.slice(0, -1)) node = isTree(node) ? node[key] : undefined;
  return isTree(node) ? node : undefined;
}

/**
 * Reads each `<key>File` (Docker and Kubernetes secrets) into `<key>`, taking off the one
 * trailing newline such files usually end with (oneLine). Changes `tree` in place; relative paths are taken from
 * `cwd`. A problem is reported at the path of the key the secret was meant for.
 */
export function readSecretFiles(tree: unknown, cwd: string): Problem[] {
  const problems: Problem[] = [];
  for (const location of SECRET_LOCATIONS) {
    const key = location.at(-1) ?? '';
    const parent = secretHolder(tree, location);
    const file = parent?.[`${key}File`];
    if (parent === undefined || typeof file !== 'string' || file === '') continue;
    const at = location.join('.');
    if (parent[key] !== undefined) {
      problems.push({ at, message: `give either ${key} or ${key}File, not both` });
      continue;
    }
    const read = readSecret(resolve(cwd, file), `${at}File`);
    if (typeof read === 'string') parent[key] = read;
    else if (read.reason.startsWith(`${at}File `)) problems.push({ at, message: read.reason });
    else problems.push({ at, message: `cannot read ${at}File ${file}: ${read.reason}` });
  }
  return problems;
}

/** The password inside a URL as the server is told it (decoded); undefined when none. */
function urlPassword(value: string): string | undefined {
  if (!URL.canParse(value)) return undefined;
  const { password } = new URL(value);
  return password === '' ? undefined : decodeURIComponent(password);
}

/**
 * The secret values a loaded config holds, for the logger to remove from every line: each at
 * SECRET_LOCATIONS, and a password inside one of them (the SMTP URL's login), decoded.
 */
export function secretValues(config: unknown): string[] {
  return SECRET_LOCATIONS.flatMap((location) => {
    const value = secretHolder(config, location)?.[location.at(-1) ?? ''];
    if (typeof value !== 'string' || value === '' || value === UNREAD_SECRET) return [];
    const password = urlPassword(value);
    return password === undefined ? [value] : [value, password];
  });
}

/** `${NAME}` (or `${NAME:-}`): a reference that puts no text of the file into the value. */
const BARE_REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(?::-)?\}/g;

/**
 * The paths of the secrets the file itself holds, as written (before `${VAR}` substitution).
 * A value made only of `${VAR}` references, and a `<key>File`, hold none; any other text does,
 * a `${VAR:-default}`'s default included, since that default stands in the file.
 */
export function inlineSecrets(tree: unknown): string[] {
  return SECRET_LOCATIONS.filter((location) => {
    const value = secretHolder(tree, location)?.[location.at(-1) ?? ''];
    if (typeof value !== 'string') return false;
    const written = value.replace(BARE_REFERENCE, '').trim();
    return written !== '' && !(location.at(-1) === 'smtp' && withoutPassword(written));
  }).map((location) => location.join('.'));
}

/** An SMTP URL's secret is its login's password: `smtp://mail.local:25` holds none. */
function withoutPassword(url: string): boolean {
  return URL.canParse(url) && new URL(url).password === '';
}

/** The `<key>File` paths the config names, with the key they are for. */
export function secretFiles(tree: unknown, cwd: string): { at: string; path: string }[] {
  return SECRET_LOCATIONS.flatMap((location) => {
    const key = location.at(-1) ?? '';
    const file = secretHolder(tree, location)?.[`${key}File`];
    if (typeof file !== 'string' || file === '') return [];
    return [{ at: `${location.join('.')}File`, path: resolve(cwd, file) }];
  });
}

/** Says what `open` failed with, and what to do about it. */
function openFailure(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'the file does not exist; mount the secret there';
  if (code === 'EACCES') return 'permission denied; make it readable for this user';
  return (error as Error).message;
}

/**
 * Reads a secret file of at most SECRET_FILE_MAX_BYTES: a secret is one line, and a bound read
 * keeps `apiKeyFile: /dev/zero` or a FIFO from filling memory or hanging the start.
 */
function readSecret(path: string, keyFile: string): string | { reason: string } {
  let read: BoundedRead;
  try {
    read = readBounded(path, SECRET_FILE_MAX_BYTES);
  } catch (error) {
    return { reason: openFailure(error) };
  }
  if (!read.ok) {
    return { reason: `${read.reason}; point ${keyFile} at a file that holds only the secret` };
  }
  return oneLine(read.bytes.toString('utf8'), keyFile);
}

/**
 * The secret a file holds: its one line, without the newline such files usually end with (LF,
 * or CRLF from Windows). That newline is all that is taken off: a blank line before or after
 * it, or a second line, is refused with the reason, never trimmed into a secret no one wrote.
 * A space or tab left at the end of the line stays, for the check of the secret to name.
 */
function oneLine(text: string, keyFile: string): string | { reason: string } {
  const refused = (what: string) => ({
    reason: `${keyFile} ${what}; write the secret alone on one line (one newline at its end is taken off)`,
  });
  if (/^(?:\r?\n)?$/.test(text)) return { reason: 'the file is empty' };
  if (/^\r?\n/.test(text)) return refused('starts with a blank line');
  const secret = text.replace(/\r?\n$/, '');
  if (/\r?\n$/.test(secret)) return refused('ends in a blank line');
  if (/[\r\n]/.test(secret)) return refused('holds more than one line');
  return secret;
}

/** What stands for a secret a command did not read (it never talks to the platform or ERP). */
export const UNREAD_SECRET = '(not read by this command)';

/**
 * Puts UNREAD_SECRET where the config gives a secret or a `<key>File`, before `${VAR}`s are
 * replaced: commands that only read or change the database (status, queue, checkpoint) then
 * run without HOMECARE_API_KEY and the other secrets in their environment. Changes `tree` in place.
 */
export function skipSecrets(tree: unknown): void {
  for (const location of SECRET_LOCATIONS) {
    const key = location.at(-1) ?? '';
    const parent = secretHolder(tree, location);
    if (parent === undefined || (parent[key] === undefined && parent[`${key}File`] === undefined))
      continue;
    delete parent[`${key}File`];
    parent[key] = UNREAD_SECRET;
  }
}
