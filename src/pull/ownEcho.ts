import {
  isOwnEcho,
  madeByTriedCreate,
  type OwnWrite,
  type ResourceName,
} from '../contract/index.js';
import { canonicalJson } from '../shared/canonicalJson.js';
import {
  claimTriedCreate,
  getMirror,
  getOwnWrite,
  isReducedRecord,
  reducedRecord,
  type MirrorRecord,
  type Store,
  type TriedCreate,
} from '../store/index.js';
import type { PulledRecord } from './pullTypes.js';

/**
 * Recognising our own changes in a pulled version (design.md: pull/ recognises them): the echo
 * of a write of ours, the answer to it listed back, the record a create of ours made, and what
 * such an echo may store.
 */

/** The same content: the texts may differ in key order and spacing. */
export const sameContent = (earlier: unknown, record: unknown): boolean =>
  canonicalJson(earlier) === canonicalJson(record);

/**
 * Is this version the answer to a write of ours, as the mirror keeps it? Only our own writes
 * put a version in the mirror that no pull brought (pushback/once/remember.ts); the same stamp with the same
 * content is that answer listed back, whatever fingerprint a later write of ours left since (one
 * is kept per record). Asked only for a record we wrote.
 */
function isOurAnswer(
  store: Store,
  resource: ResourceName,
  { id, version, record }: PulledRecord,
): boolean {
  const mirrored = getMirror(store, resource, id);
  return mirrored?.version === version && sameContent(mirrored.record, record);
}

/**
 * The fingerprint of a record first seen, when a create of ours whose answer was lost made it
 * (`tried`: the batch's creates of the resource not yet claimed, nearly always none). The
 * record is then known as ours from here on: its `_id` takes the fingerprint.
 */
function claimedByTriedCreate(
  store: Store,
  resource: ResourceName,
  { id, record }: PulledRecord,
  tried: TriedCreate[],
): OwnWrite | undefined {
  if (tried.length === 0 || getMirror(store, resource, id) !== undefined) return undefined;
  for (const [index, create] of tried.entries()) {
    const write = madeByTriedCreate(create, record);
    if (write === undefined) continue;
    claimTriedCreate(store, resource, create, id, write);
    tried.splice(index, 1);
    return write;
  }
  return undefined;
}

/**
 * The reduced body our own write coming back keeps (undefined: the version is stored whole).
 * After `forget` (or retention) the mirror holds the record reduced; the echo of a write of ours
 * made before is no change on the platform, so it must not bring the personal data back: it is
 * stored as reduced as the record was, with the same mark. A change by someone else (not an
 * echo) is pulled whole, as any new version.
 */
export function keptReduced(
  echo: boolean,
  before: MirrorRecord | undefined,
  record: MirrorRecord,
): { record: MirrorRecord; json: string } | undefined {
  if (!echo || before === undefined || !isReducedRecord(before)) return undefined;
  const json = reducedRecord(JSON.stringify(record), String(before['_reduced']));
  return { record: JSON.parse(json) as MirrorRecord, json };
}

/**
 * Whether a pulled version is our own write coming back (whether or not the platform left it
 * out of an earlier pull): the fingerprint of our last write to it, or of a create of ours
 * whose answer was lost, matches it, or it is our write's answer as the mirror keeps it.
 * `before`: the record as the mirror held it before this version.
 */
export function isOurOwnWrite(
  store: Store,
  resource: ResourceName,
  pulled: PulledRecord,
  tried: TriedCreate[],
  before: MirrorRecord | undefined,
): boolean {
  // Only a record we wrote can have our answer in the mirror: no second read for the others.
  const ownWrite =
    getOwnWrite(store, resource, pulled.id) ?? claimedByTriedCreate(store, resource, pulled, tried);
  return (
    isOwnEcho(ownWrite, pulled.record, () => before) ||
    (ownWrite !== undefined && isOurAnswer(store, resource, pulled))
  );
}
