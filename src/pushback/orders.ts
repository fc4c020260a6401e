import { canTransition, orderStatusName } from '../contract/index.js';
import type { PlatformClient, PlatformRecord } from '../platform/index.js';
import { PermanentError } from '../shared/errors.js';

export type OrderResource = 'singleOrder' | 'directOrder';

/** How messages and logs name an order resource. */
export function orderLabel(resource: OrderResource): string {
  return resource === 'singleOrder' ? 'single order' : 'direct order';
}

export function patchOrder(
  client: PlatformClient,
  resource: OrderResource,
  id: string,
  body: PlatformRecord,
): Promise<PlatformRecord> {
  return resource === 'singleOrder'
    ? client.patchSingleOrder(id, body)
    : client.patchDirectOrder(id, body);
}

/**
 * Refuses a status change the transition table forbids, before anything is sent. `from` is the
 * status the mirror holds; the platform's answer to every PATCH refreshes it.
 */
export function checkTransition(
  resource: OrderResource,
  id: string,
  from: unknown,
  to: number,
): void {
  const verdict = canTransition(typeof from === 'number' ? from : NaN, to);
  if (verdict.allowed) return;
  const current = typeof from === 'number' ? orderStatusName(from) : 'unknown';
  const hint =
    'the ERP reported a status change the platform does not allow; correct the status in the ERP, then drop this job';
  throw new PermanentError(
    `${orderLabel(resource)} ${id} (now ${current}): ${verdict.reason}; not sent. ${hint}`,
    { resource, id, code: 'FORBIDDEN_TRANSITION', hint },
  );
}
