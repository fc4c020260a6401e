import {
  CARE_PROPOSAL_STATUS,
  ORDER_STATUS,
  SERIES_STATUS_NOT_TRANSMITTED,
  type ResourceName,
} from '../contract/index.js';

/**
 * How the simulator sorts records into the `status` filters of spec document 1, which names the
 * filters but not their exact meaning (documented in docs/readme/simulator.md):
 * - orders: created = Created and not yet acknowledged by a client's PATCH; transmitted =
 *   Transmitted, Transmission_failure or OrderStopped; updated = any other status;
 * - integrated care: deactivated = Inactive; created = active, seriesStatus 0 (our reading of
 *   "not yet transmitted", src/contract/readings.ts), not yet acknowledged; transmitted = the
 *   other active ones.
 * Archived records are told apart by their own column, never by this class.
 */
const TRANSMITTED: readonly number[] = [
  ORDER_STATUS.Transmitted,
  ORDER_STATUS.Transmission_failure,
  ORDER_STATUS.OrderStopped,
];

export function statusClassOf(
  resource: ResourceName,
  record: Record<string, unknown>,
  acknowledged: boolean,
): string | null {
  if (resource === 'singleOrder' || resource === 'directOrder') {
    const status = record.status;
    if (status === ORDER_STATUS.Created && !acknowledged) return 'created';
    if (typeof status === 'number' && TRANSMITTED.includes(status)) return 'transmitted';
    return 'updated';
  }
  if (resource === 'integratedCare') {
    if (record.status === CARE_PROPOSAL_STATUS.Inactive) return 'deactivated';
    const seriesStatus = record.seriesStatus ?? SERIES_STATUS_NOT_TRANSMITTED;
    return seriesStatus === SERIES_STATUS_NOT_TRANSMITTED && !acknowledged
      ? 'created'
      : 'transmitted';
  }
  return null;
}
