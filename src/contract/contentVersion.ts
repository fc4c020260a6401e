/**
 * Two contents under one stamp (a platform that changes a record without moving its stamp, or
 * two changes within its clock's resolution). The first content keeps the stamp as its version;
 * each other one is the version `<stamp>_<hash8>`, the first 8 hex digits of its content's
 * SHA-256, so that it is a version of its own in the ledger, in the outbox file's name
 * (`<_id>_<stamp>_<hash8>`) and in the REST Idempotency-Key. Stamps never hold `_`.
 */
const SUFFIXED = /^(.+)_([0-9a-f]{8})$/;
const SUFFIX_LENGTH = 9;

/** SQL for the stamp of the version in `column` (SQLite's GLOB matches the suffix). */
export function stampSql(column: string): string {
  const suffix = `_${'[0-9a-f]'.repeat(SUFFIX_LENGTH - 1)}`;
  return `CASE WHEN ${column} GLOB '*${suffix}' THEN substr(${column}, 1, length(${column}) - ${SUFFIX_LENGTH}) ELSE ${column} END`;
}

/** The version of a content under `stamp` that differs from the one first seen there. */
export function sameStampVersion(stamp: string, sha256: string): string {
  return `${stamp}_${sha256.slice(0, 8)}`;
}

/** A version's stamp, and the content suffix of a second content under that stamp. */
export function versionParts(version: string): { stamp: string; contentHash?: string } {
  const match = SUFFIXED.exec(version);
  return match?.[1] === undefined || match[2] === undefined
    ? { stamp: version }
    : { stamp: match[1], contentHash: match[2] };
}
