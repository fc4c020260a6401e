import type { Logger } from 'pino';
import { RESOURCE_NAMES, type Contract, type ResourceName } from '../contract/index.js';
import type { DeliveryOutcome, ErpAdapter, OutboundRecord } from '../erp/adapter.js';
import { deliverKind, deliveredResource, deliveryJob, enqueue } from '../queue/index.js';
import type { BatchHandler, DeliverKind, Handler, Job, JobResult } from '../queue/types.js';
import { PermanentError, TransientError, errorMessage } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import { getLedgerEntry, getMirror, markDelivered, setAckState } from '../store/index.js';
import { acknowledgementOf } from './acknowledge.js';
import { enrich, type Reference } from './enrich.js';

export interface DeliverDeps {
  store: Store;
  adapter: ErpAdapter;
  contract: Contract;
  logger: Logger;
  /** Fetches a record the mirror lacks by its id and stores it in the mirror; false when it cannot. */
  fetchReference(reference: Reference): Promise<boolean>;
  /** The binary companions of a record (a document's PDF and XML, an attachment's file). */
  filesOf(
    resource: ResourceName,
    record: Record<string, unknown>,
  ): Promise<OutboundRecord['files']>;
  /** Most records in one hand-over (one batch file), for adapters that take batches. */
  batchSize: number;
}

/** Queues the hand-over of a new version, in the caller's transaction (the pull's). */
export function queueDelivery(store: Store, resource: ResourceName, id: string, version: string) {
  enqueue(store, deliveryJob(resource, id, version));
}

interface VersionRef {
  resource: ResourceName;
  id: string;
  version: string;
}

function versionOf(job: Job): VersionRef {
  const { id, version } = job.payload;
  const resource = deliveredResource(job.kind);
  if (resource === undefined || typeof id !== 'string' || typeof version !== 'string') {
    throw new PermanentError(`job ${job.id} (${job.kind}) names no record version to deliver`);
  }
  return { resource, id, version };
}

/** The version's record as pulled; the mirror's when an old ledger row did not keep it. */
function recordOf(store: Store, ref: VersionRef): Record<string, unknown> {
  const entry = getLedgerEntry(store, ref.resource, ref.id, ref.version);
  if (entry?.json !== undefined) return JSON.parse(entry.json) as Record<string, unknown>;
  const mirrored = getMirror(store, ref.resource, ref.id);
  if (mirrored?.version === ref.version) return mirrored.record;
  throw new PermanentError(
    `${ref.resource} ${ref.id} (${ref.version}): this version's record was not kept, so it cannot be handed to the ERP; a newer version is handed over when it is pulled`,
    { resource: ref.resource, id: ref.id, code: 'DELIVERY_RECORD_MISSING' },
  );
}

/**
 * The version enriched with the ERP's keys, with its files. A reference the mirror lacks is
 * fetched once; if it is still missing, the hand-over waits (a transient failure, with the
 * queue's back-off) and the message names what is missing.
 */
async function outboundOf(deps: DeliverDeps, job: Job): Promise<OutboundRecord> {
  const ref = versionOf(job);
  const record = recordOf(deps.store, ref);
  const lookup = (r: ResourceName, id: string) => getMirror(deps.store, r, id)?.record;
  try {
    let result = enrich(ref.resource, record, lookup);
    if (!result.ok) {
      for (const reference of result.missing) await deps.fetchReference(reference);
      result = enrich(ref.resource, record, lookup);
    }
    if (!result.ok) {
      const missing = result.missing.map((r) => `${r.resource} ${r.id}`).join(', ');
      throw new TransientError(
        `${ref.resource} ${ref.id} (${ref.version}) waits for ${missing}, not yet known; it is handed to the ERP once they are pulled`,
        { resource: ref.resource, id: ref.id, code: 'DELIVERY_WAITS_FOR_REFERENCE' },
      );
    }
    const files = await deps.filesOf(ref.resource, result.record);
    return { ...ref, record: result.record, ...(files ? { files } : {}) };
  } catch (error) {
    if (error instanceof TransientError) throw error;
    throw new TransientError(
      `${ref.resource} ${ref.id} (${ref.version}): a reference or file could not be fetched: ${errorMessage(error)}`,
      { resource: ref.resource, id: ref.id, cause: error },
    );
  }
}

/**
 * What a delivered version makes true, in the transaction that completes its job: the ledger
 * marks it delivered and its acknowledgement is queued, so a crash cannot leave an order
 * delivered but never acknowledged, nor acknowledged before the ERP has it.
 */
function delivered(deps: DeliverDeps, outbound: OutboundRecord): () => void {
  return () => {
    const { resource, id, version } = outbound;
    markDelivered(deps.store, resource, id, version);
    const ack = acknowledgementOf(deps.contract, outbound);
    if (ack === undefined) return;
    enqueue(deps.store, ack, deps.logger);
    setAckState(deps.store, resource, id, version, 'queued');
  };
}

function resultOf(
  deps: DeliverDeps,
  outbound: OutboundRecord,
  outcome: DeliveryOutcome | undefined,
): JobResult {
  const context = { resource: outbound.resource, id: outbound.id };
  if (outcome === undefined) {
    return { ok: false, error: new TransientError('the ERP adapter gave no outcome', context) };
  }
  if (outcome.status === 'delivered') return { ok: true, complete: delivered(deps, outbound) };
  if (outcome.status === 'retry') {
    const wait = outcome.retryAfterMs;
    const error = new TransientError(outcome.reason, {
      ...context,
      code: 'ERP_UNAVAILABLE',
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
    });
    return { ok: false, error };
  }
  const error = new PermanentError(`the ERP refused it: ${outcome.reason}`, {
    ...context,
    code: 'ERP_REFUSED',
    ...(outcome.httpStatus === undefined ? {} : { status: outcome.httpStatus }),
    ...(outcome.body === undefined ? {} : { bodyExcerpt: outcome.body }),
  });
  return { ok: false, error };
}

/** One version, one hand-over (record files, REST). */
function deliverOne(deps: DeliverDeps): Handler {
  return async (job) => {
    const outbound = await outboundOf(deps, job);
    const [outcome] = await deps.adapter.deliver([outbound], job.id);
    const result = resultOf(deps, outbound, outcome);
    if (!result.ok) throw result.error;
    return result.complete;
  };
}

/**
 * The ready versions of one resource in one hand-over (one batch file). A version that cannot
 * be prepared stays out of it and fails on its own; the others go on.
 */
function deliverBatch(deps: DeliverDeps): BatchHandler {
  return {
    maxJobs: Math.min(deps.batchSize, deps.adapter.batchLimit ?? deps.batchSize),
    async run(jobs, batch) {
      const prepared: ({ outbound: OutboundRecord } | { failed: JobResult })[] = [];
      for (const job of jobs) {
        prepared.push(
          await outboundOf(deps, job).then(
            (outbound) => ({ outbound }),
            (error: unknown) => ({ failed: { ok: false, error } }),
          ),
        );
      }
      const ready = prepared.flatMap((p) => ('outbound' in p ? [p.outbound] : []));
      const outcomes = ready.length === 0 ? [] : await deps.adapter.deliver(ready, batch);
      let next = 0;
      return prepared.map((p) =>
        'outbound' in p ? resultOf(deps, p.outbound, outcomes[next++]) : p.failed,
      );
    },
  };
}

/**
 * The handler of every `deliver.<resource>` kind: a version at a time, or, for an adapter that
 * hands over batches, the ready versions of a resource together.
 */
export function deliveryHandlers(deps: DeliverDeps): Record<DeliverKind, Handler | BatchHandler> {
  const handler = deps.adapter.batches ? deliverBatch(deps) : deliverOne(deps);
  return Object.fromEntries(RESOURCE_NAMES.map((r) => [deliverKind(r), handler])) as Record<
    DeliverKind,
    Handler | BatchHandler
  >;
}
