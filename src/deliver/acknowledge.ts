import { type Contract, ORDER_STATUS, SERIES_STATUS_NOT_TRANSMITTED } from '../contract/index.js';
import type { OutboundRecord } from '../erp/adapter.js';
import type { NewJob } from '../queue/types.js';

/**
 * The acknowledgement an ERP delivery calls for, if any: an order still Created is moved to
 * Transmitted; a care arrangement not yet transmitted (seriesStatus 0, our reading of the
 * unnamed values) gets seriesStatus 1 — when the config chose that reading
 * (`ack.integratedCare: seriesStatus`) and the variant lets us PATCH care arrangements at all; in
 * C they are read-only, and under `none` delivery is tracked locally only.
 */
export function acknowledgementOf(
  contract: Contract,
  outbound: OutboundRecord,
): NewJob | undefined {
  const { resource, id, version, record } = outbound;
  const payload = { resource, id, version };
  const entityKey = `${resource}:${id}`;
  if (resource === 'singleOrder' || resource === 'directOrder') {
    if (record['status'] !== ORDER_STATUS.Created || record['archived'] === true) return undefined;
    return {
      kind: `ack.${resource}`,
      entityKey,
      payload,
      idempotencyKey: `ack:${resource}:${id}:${version}`,
    };
  }
  if (resource === 'integratedCare') {
    if (contract.readings.integratedCareAck === 'none') return undefined;
    if (!contract.find('integratedCare', 'update')) return undefined;
    const { seriesStatus, archived } = record;
    if (seriesStatus !== SERIES_STATUS_NOT_TRANSMITTED || archived === true) return undefined;
    return {
      kind: 'ack.integratedCare',
      entityKey,
      payload,
      idempotencyKey: `ack:${resource}:${id}:${version}`,
    };
  }
  return undefined;
}
