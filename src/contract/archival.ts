import { valueAt } from '../shared/objects.js';
import { ORDER_STATUS } from './orderStatus.js';
import type { ResourceName } from './resources.js';

/**
 * Where a record says it is archived. Spec document 2: every entity carries `archived` ("soft
 * delete marker; archived entities are excluded from standard queries"); an attachment carries
 * it in `metadata` instead, and has no top-level `archived`.
 */
export const ARCHIVED_FLAG: Partial<Record<ResourceName, string>> = {
  attachment: 'metadata.archived',
};
const DEFAULT_ARCHIVED_FLAG = 'archived';

/**
 * End statuses that take a record out of use as archiving does. Spec document 1, "Order
 * status": `-1 Deleted`, "end status; no further change possible", for single and direct orders.
 */
export const DELETED_STATUS: Partial<Record<ResourceName, { field: string; value: number }>> = {
  singleOrder: { field: 'status', value: ORDER_STATUS.Deleted },
  directOrder: { field: 'status', value: ORDER_STATUS.Deleted },
};

/** Why a record left use: archived on the platform, or an order in the end status Deleted. */
export type GoneReason = 'archived' | 'deleted';

/**
 * Whether a record version shows the record archived or deleted, and which; undefined while it
 * is live. Archived wins when both hold: it is the platform's general soft delete.
 */
export function goneReason(
  resource: ResourceName,
  record: Readonly<Record<string, unknown>>,
): GoneReason | undefined {
  if (valueAt(record, ARCHIVED_FLAG[resource] ?? DEFAULT_ARCHIVED_FLAG) === true) return 'archived';
  const deleted = DELETED_STATUS[resource];
  if (deleted !== undefined && valueAt(record, deleted.field) === deleted.value) return 'deleted';
  return undefined;
}

/**
 * Lists that leave archived records out (spec document 2: `GET /attachment`, "archived
 * attachments excluded"). Where the variant offers no filter for them either (`archivedAfter`
 * only in B), a record archived there only vanishes from its list.
 */
export const LISTS_LEAVING_ARCHIVED_OUT: readonly ResourceName[] = ['attachment'];
