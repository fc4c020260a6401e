import type { DeliveryOutcome, OutboundRecord } from '../erp/adapter.js';
import { backoffMs } from '../queue/outcome.js';
import {
  markDelivered,
  postponeDelivery,
  setAckState,
  setWaitingFor,
  transaction,
  type LedgerEntry,
} from '../store/index.js';
import { acknowledgementOf } from './acknowledge.js';
import type { DeliverDeps } from './deliver.js';

type Failure = Exclude<DeliveryOutcome, { status: 'delivered' }>;

/**
 * A failed hand-over that may pass: the version is tried again after a back-off (or the ERP's
 * Retry-After), and after `retry.maxAttempts` tries it goes to the dead letters.
 */
export function postpone(
  deps: DeliverDeps,
  entry: LedgerEntry,
  outcome: Extract<Failure, { status: 'retry' }>,
): 'retry' | 'rejected' {
  const ref = { resource: entry.resource, id: entry.id, version: entry.version };
  const wait = outcome.retryAfterMs ?? backoffMs(deps.retry, entry.deliveryAttempts, deps.random);
  const nextAt = new Date(deps.clock.now().getTime() + wait).toISOString();
  const attempts = postponeDelivery(deps.store, ref, nextAt);
  if (attempts >= deps.retry.maxAttempts) {
    const reason = `the ERP did not take ${entry.resource} ${entry.id} (${entry.version}) in ${attempts} tries: ${outcome.reason}`;
    deps.deadLetter(ref, attempts, { reason });
    deps.logger.error(
      { resource: entry.resource, _id: entry.id, attempts },
      'delivery given up; it is in the dead letters',
    );
    return 'rejected';
  }
  deps.logger.warn(
    { resource: entry.resource, _id: entry.id, reason: outcome.reason, nextAt },
    'delivery to the ERP will be retried',
  );
  return 'retry';
}

/** Records what the adapter said about one version; returns the summary bucket it counts in. */
export function settleOutcome(
  deps: DeliverDeps,
  entry: LedgerEntry,
  outbound: OutboundRecord,
  outcome: DeliveryOutcome,
): 'delivered' | 'retry' | 'rejected' {
  if (outcome.status === 'retry') return postpone(deps, entry, outcome);
  if (outcome.status === 'rejected') {
    const ref = { resource: entry.resource, id: entry.id, version: entry.version };
    deps.deadLetter(ref, entry.deliveryAttempts + 1, {
      reason: outcome.reason,
      httpStatus: outcome.httpStatus,
      bodyExcerpt: outcome.body,
    });
    deps.logger.error(
      {
        resource: entry.resource,
        _id: entry.id,
        reason: outcome.reason,
        httpStatus: outcome.httpStatus,
      },
      'the ERP refused the record; it is in the dead letters (queue list --dead)',
    );
    return 'rejected';
  }
  transaction(deps.store, () => {
    markDelivered(deps.store, entry.resource, entry.id, entry.version);
    setWaitingFor(deps.store, entry.resource, entry.id, entry.version, undefined);
    const ack = acknowledgementOf(deps.contract, outbound);
    if (ack) {
      deps.enqueue(ack);
      setAckState(deps.store, entry.resource, entry.id, entry.version, 'queued');
    }
  });
  return 'delivered';
}
