import type { ResourceName } from '../contract/index.js';
import type { ArchivalEvent, OutboundRecord } from '../erp/adapter.js';
import { deliveredResource } from '../queue/index.js';
import type { Job } from '../queue/types.js';
import { PermanentError, TransientError, errorMessage } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import {
  getMirror,
  mirrorKey,
  mirrorRecords,
  versionRecords,
  type MirrorKeyOf,
} from '../store/index.js';
import { archivalLedgerId } from '../queue/index.js';
import type { DeliverDeps } from './deps.js';
import {
  enrich,
  referencesOf,
  type Enrichment,
  type MirrorLookup,
  type Reference,
} from './enrich.js';

/** The result a job fails with. */
type Failed = { failed: { ok: false; error: unknown } };

/** A version ready for the adapter, or the result its job fails with. */
export type Prepared = { outbound: OutboundRecord } | Failed;

interface VersionRef {
  resource: ResourceName;
  id: string;
  version: string;
  /** The job hands over the record's archival event (queueArchival), not the version. */
  archival?: true;
}

/** A version to hand over, with its record as pulled. */
interface Version extends VersionRef {
  record: Record<string, unknown>;
}

const failed = (error: unknown): Failed => ({ failed: { ok: false, error } });

function versionRefOf(job: Job): VersionRef {
  const { id, version, archival } = job.payload;
  const resource = deliveredResource(job.kind);
  if (resource === undefined || typeof id !== 'string' || typeof version !== 'string') {
    throw new PermanentError(`job ${job.id} (${job.kind}) names no record version to deliver`);
  }
  return { resource, id, version, ...(archival === true ? { archival: true } : {}) };
}

/** Where the ledger keeps what a job hands over: the version's row, or its archival event's. */
const ledgerKeyOf = (ref: VersionRef) =>
  ref.archival ? { ...ref, id: archivalLedgerId(ref.id) } : ref;

const recordMissing = (ref: VersionRef) =>
  new PermanentError(
    `${ref.resource} ${ref.id} (${ref.version}): this version's record was not kept, so it cannot be handed to the ERP; a newer version is handed over when it is pulled`,
    { resource: ref.resource, id: ref.id, code: 'DELIVERY_RECORD_MISSING' },
  );

/** The jobs' versions with their records as pulled, read together; a job that has none fails alone. */
function versionsOf(store: Store, jobs: readonly Job[]): (Version | Failed)[] {
  const refs = jobs.map((job) => {
    try {
      return versionRefOf(job);
    } catch (error) {
      return failed(error);
    }
  });
  const wanted = refs.filter((ref): ref is VersionRef => !('failed' in ref));
  const records = versionRecords(store, wanted.map(ledgerKeyOf));
  let next = 0;
  return refs.map((ref) => {
    if ('failed' in ref) return ref;
    const record = records[next++];
    return record === undefined ? failed(recordMissing(ref)) : { ...ref, record };
  });
}

/** The mirror as it is now, record by record: after a reference was fetched. */
export const liveMirror =
  (store: Store): MirrorLookup =>
  (resource, id) =>
    getMirror(store, resource, id)?.record;

/** The mirrored records the enrichment of `versions` reads, in one query, each parsed once. */
function mirrorFor(store: Store, versions: readonly Version[]): MirrorLookup {
  const keys = new Map<string, MirrorKeyOf>();
  for (const { resource, record } of versions) {
    for (const ref of referencesOf(resource, record)) {
      keys.set(mirrorKey(ref.resource, ref.id), ref);
    }
  }
  const found = mirrorRecords(store, [...keys.values()]);
  return (resource, id) => found.get(mirrorKey(resource, id));
}

/** What enriching a version from the mirror gave, before any fetch. */
interface Enriched {
  version: Version;
  first: Enrichment;
}

/**
 * Fetches the references the mirror lacks for all these versions at once, each once. Answers
 * the fetches that failed, by `mirrorKey`; when the fetching itself fails, every one did.
 */
async function fetchMissing(
  deps: DeliverDeps,
  enriched: readonly Enriched[],
): Promise<ReadonlyMap<string, unknown>> {
  const missing = new Map<string, Reference>();
  for (const { first } of enriched) {
    if (first.ok) continue;
    for (const ref of first.missing) missing.set(mirrorKey(ref.resource, ref.id), ref);
  }
  if (missing.size === 0) return new Map();
  try {
    return await deps.fetchReferences([...missing.values()]);
  } catch (error) {
    return new Map([...missing.keys()].map((key) => [key, error]));
  }
}

const waitsFor = (ref: VersionRef, missing: readonly Reference[]) =>
  new TransientError(
    `${ref.resource} ${ref.id} (${ref.version}) waits for ${missing.map((r) => `${r.resource} ${r.id}`).join(', ')}, not yet known; it is handed to the ERP once they are pulled`,
    { resource: ref.resource, id: ref.id, code: 'DELIVERY_WAITS_FOR_REFERENCE' },
  );

const couldNotFetch = (ref: VersionRef, error: unknown): TransientError =>
  error instanceof TransientError
    ? error
    : new TransientError(
        `${ref.resource} ${ref.id} (${ref.version}): a reference or file could not be fetched: ${errorMessage(error)}`,
        { resource: ref.resource, id: ref.id, cause: error },
      );

/**
 * The version enriched with the ERP's keys, with its files. A reference the mirror lacked was
 * fetched for the whole hand-over; if it is still missing, the hand-over waits (a transient
 * failure, with the queue's back-off) and the message names what is missing.
 */
async function outboundOf(
  deps: DeliverDeps,
  { version, first }: Enriched,
  fetchFailures: ReadonlyMap<string, unknown>,
): Promise<OutboundRecord> {
  const { record } = version;
  const ref = { resource: version.resource, id: version.id, version: version.version };
  try {
    let result = first;
    if (!result.ok) {
      for (const { resource, id } of result.missing) {
        const failure = fetchFailures.get(mirrorKey(resource, id));
        if (failure !== undefined) throw couldNotFetch(ref, failure);
      }
      result = enrich(ref.resource, record, liveMirror(deps.store));
    }
    if (!result.ok) throw waitsFor(ref, result.missing);
    const files = await deps.filesOf(ref.resource, result.record);
    return { ...ref, record: result.record, ...(files ? { files } : {}) };
  } catch (error) {
    throw couldNotFetch(ref, error);
  }
}

const isVersion = (one: Version | Prepared): one is Version => 'record' in one;

/**
 * An archival event goes out as it was kept: it names the record by its ids alone, so there is
 * nothing to enrich and no file to fetch.
 */
function archivalReady(version: Version | Failed): Version | Prepared {
  if ('failed' in version || version.archival !== true) return version;
  const { resource, id, record } = version;
  if (!isEventOf(version, record)) return failed(notAnEvent(version));
  return { outbound: { resource, id, version: version.version, record, archival: record } };
}

/** The ledger row holds what queueArchival wrote for this very record and version. */
const isEventOf = (
  ref: VersionRef,
  record: Record<string, unknown>,
): record is Record<string, unknown> & ArchivalEvent =>
  record['event'] === 'archived' &&
  record['resource'] === ref.resource &&
  record['_id'] === ref.id &&
  record['version'] === ref.version;

const notAnEvent = (ref: VersionRef) =>
  new PermanentError(
    `${ref.resource} ${ref.id} (${ref.version}): the archival event kept in the ledger is not one for this record; drop the job, the record's own version went out`,
    { resource: ref.resource, id: ref.id, code: 'DELIVERY_RECORD_MISSING' },
  );

/**
 * The jobs' versions as the ERP gets them, in order: records and the mirrored records they
 * reference read in two queries for all of them, the references the mirror lacks fetched
 * together. A version that cannot be prepared fails alone.
 */
export async function prepareHandOver(
  deps: DeliverDeps,
  jobs: readonly Job[],
): Promise<Prepared[]> {
  const versions = versionsOf(deps.store, jobs).map(archivalReady);
  const mirror = mirrorFor(deps.store, versions.filter(isVersion));
  const enriched = versions.map((version): Enriched | Prepared =>
    isVersion(version)
      ? { version, first: enrich(version.resource, version.record, mirror) }
      : version,
  );
  const fetchFailures = await fetchMissing(
    deps,
    enriched.filter((one): one is Enriched => 'first' in one),
  );
  const prepared: Prepared[] = [];
  for (const one of enriched) {
    if (!('first' in one)) {
      prepared.push(one);
      continue;
    }
    prepared.push(
      await outboundOf(deps, one, fetchFailures).then((outbound) => ({ outbound }), failed),
    );
  }
  return prepared;
}

/** One job's version as the ERP gets it; throws what its job fails with. */
export async function prepareOne(deps: DeliverDeps, job: Job): Promise<OutboundRecord> {
  const [prepared] = await prepareHandOver(deps, [job]);
  if (prepared !== undefined && 'outbound' in prepared) return prepared.outbound;
  throw prepared?.failed.error;
}
