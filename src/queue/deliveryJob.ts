import type { ResourceName } from '../contract/index.js';
import type { ArchivalEvent } from '../erp/adapter.js';
import { AGAIN, archivalKey, handOverKey, recordVersion, type Store } from '../store/index.js';
import { enqueue } from './enqueue.js';
import { deliverKind, type NewJob } from './types.js';

/**
 * The queue job that hands a record version to the ERP. The idempotency key makes a version
 * pulled again (the overlap window, a repeated run) queue once; the entity key keeps the
 * versions of one record, and its acknowledgement, in order. `again` marks an operator's
 * redelivery, which must queue although the version was queued before.
 */
export function deliveryJob(
  resource: ResourceName,
  id: string,
  version: string,
  again?: string,
): NewJob {
  const key = handOverKey(resource, id, version);
  return {
    kind: deliverKind(resource),
    entityKey: `${resource}:${id}`,
    payload: { resource, id, version },
    idempotencyKey: again === undefined ? key : `${key}${AGAIN}${again}`,
  };
}

/**
 * The queue job that hands a record's archival event to the ERP: the record's delivery kind and
 * entity key, so it follows the version that archived it, under a key of its own (`…:archived`),
 * never the version's.
 */
export function archivalJob(resource: ResourceName, id: string, version: string): NewJob {
  const job = deliveryJob(resource, id, version);
  return {
    ...job,
    payload: { ...job.payload, archival: true },
    idempotencyKey: archivalKey(handOverKey(resource, id, version)),
  };
}

/**
 * Queues the hand-over of a new version, in the caller's transaction (the pull's): how the pull
 * stage hands a version to the deliver stage, through the queue's table.
 */
export function queueDelivery(store: Store, resource: ResourceName, id: string, version: string) {
  enqueue(store, deliveryJob(resource, id, version));
}

/**
 * The ledger row of a record's archival event: beside the record's versions, not among them, so
 * that it never becomes the record's newest version (how retention and repeats know a record)
 * and the record's versions never pass for it. `#` is in no `_id` or composite id the contract
 * gives (UUIDs, `/`-joined identities).
 */
export const archivalLedgerId = (id: string): string => `${id}#archived`;

/**
 * Queues the hand-over of an archival event, in the caller's transaction (the pull's or the
 * reconciliation's): false when this archival was queued before. The ledger row keeps the
 * event's text, so every retry hands the ERP the same bytes; it goes through the record's
 * delivery kind and entity key, so it follows the version that archived it (FIFO per record).
 */
export function queueArchival(store: Store, event: ArchivalEvent, runId?: number): boolean {
  const { resource, _id: id, version } = event;
  const json = JSON.stringify(event);
  if (!recordVersion(store, resource, archivalLedgerId(id), version, { runId, json })) {
    return false;
  }
  enqueue(store, archivalJob(resource, id, version));
  return true;
}
