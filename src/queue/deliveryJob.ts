import type { ResourceName } from '../contract/index.js';
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
  const key = `${resource}:${id}:${version}`;
  return {
    kind: deliverKind(resource),
    entityKey: `${resource}:${id}`,
    payload: { resource, id, version },
    idempotencyKey: again === undefined ? key : `${key}:again:${again}`,
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
    idempotencyKey: `${job.idempotencyKey}:archived`,
  };
}
