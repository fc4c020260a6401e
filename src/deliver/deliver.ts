/**
 * Stage 2, deliver: hands pulled versions to the ERP's adapter (enriched, references fetched) and,
 * once the ERP has one, queues its acknowledgement in the same transaction.
 */
import { RESOURCE_NAMES } from '../contract/index.js';
import type { DeliveryOutcome, OutboundRecord } from '../erp/adapter.js';
import { archivalLedgerId, deliverKind, enqueue } from '../queue/index.js';
import type { BatchHandler, DeliverKind, Handler, JobResult } from '../queue/types.js';
import { PermanentError, TransientError } from '../shared/errors.js';
import { markDelivered, setAckState } from '../store/index.js';
import { acknowledgementOf } from './acknowledge.js';
import type { DeliverDeps } from './deps.js';
import { prepareHandOver, prepareOne } from './outbound.js';

/**
 * What a delivered version makes true, in the transaction that completes its job: the ledger
 * marks it delivered and its acknowledgement is queued, so a crash cannot leave an order
 * delivered but never acknowledged, nor acknowledged before the ERP has it.
 */
function delivered(deps: DeliverDeps, outbound: OutboundRecord): () => void {
  return () => {
    const { resource, id, version } = outbound;
    if (outbound.archival !== undefined) {
      // An event is not a version: it has its own ledger row and nothing to acknowledge.
      markDelivered(deps.store, resource, archivalLedgerId(id), version);
      return;
    }
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
    const outbound = await prepareOne(deps, job);
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
      const prepared = await prepareHandOver(deps, jobs);
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
