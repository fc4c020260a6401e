import { createHash } from 'node:crypto';
import { versionParts } from '../../../contract/index.js';

/**
 * File names in the outbox. A name is built only from [A-Za-z0-9.-] plus `~XX` escapes, never
 * starts with a dot and never holds a path separator, so no record can name a file outside its
 * resource folder. The escaping is reversible, so two different ids never share a name.
 */
const SAFE = /[A-Za-z0-9.-]/;
const MAX_SEGMENT = 150;

function escapeByte(byte: number): string {
  return `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
}

/** `_` and `~` are escaped too: `_` separates id from version, `~` starts an escape. */
export function safeSegment(value: string): string {
  let out = '';
  for (const char of value) {
    if (SAFE.test(char) && !(out === '' && char === '.')) out += char;
    else for (const byte of Buffer.from(char, 'utf8')) out += escapeByte(byte);
  }
  if (out === '') return '~';
  if (out.length <= MAX_SEGMENT) return out;
  const digest = createHash('sha256').update(value).digest('hex').slice(0, 16);
  return `${out.slice(0, MAX_SEGMENT - 19)}~h${digest}`;
}

/** A version such as `2026-01-15T08:00:00.000Z` becomes `2026-01-15T08-00-00.000Z`. */
export function safeVersion(version: string): string {
  return safeSegment(version.replaceAll(':', '-'));
}

/** `<_id>_<version>`, and `<_id>_<stamp>_<hash8>` for a second content under one stamp. */
export function recordBaseName(id: string, version: string): string {
  const { stamp, contentHash } = versionParts(version);
  const base = `${safeSegment(id)}_${safeVersion(stamp)}`;
  return contentHash === undefined ? base : `${base}_${contentHash}`;
}

/** Digits of a batch file's number: names sort in the order the batches were formed. */
export const BATCH_DIGITS = 10;

/** `article_0000000042`: one name per batch, never reused. */
export function batchBaseName(resource: string, batch: number): string {
  return `${safeSegment(resource)}_${String(batch).padStart(BATCH_DIGITS, '0')}`;
}

/** A companion's suffix (`pdf`, `xml`) with everything but [A-Za-z0-9.-] escaped. */
export function safeSuffix(suffix: string): string {
  return safeSegment(suffix.replace(/^\.+/, ''));
}
