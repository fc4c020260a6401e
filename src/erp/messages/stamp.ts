import { isIsoDateTime } from '../../contract/index.js';
import type { Problem } from './problems.js';

/**
 * The ERP's own stamp of a message, `erpTimestamp`, which every kind may carry: when the ERP
 * changed what the message says, an ISO 8601 date-time with its zone. It orders the messages of
 * one entity and counts in their content; it is never written to the platform.
 */
export const ERP_STAMP = 'erpTimestamp';

type Body = Record<string, unknown>;

/**
 * The message without its stamp, and the stamp as one instant in UTC (so that two stamps compare
 * as text), or why the stamp it gave is none.
 */
export function withoutStamp(message: Body): { body: Body; stamp?: string; problem?: Problem } {
  if (!Object.hasOwn(message, ERP_STAMP)) return { body: message };
  const { [ERP_STAMP]: stamp, ...body } = message;
  if (typeof stamp === 'string' && isIsoDateTime(stamp)) {
    return { body, stamp: new Date(stamp).toISOString() };
  }
  const problem = {
    path: ERP_STAMP,
    message:
      'must be the ERP’s stamp as an ISO 8601 date-time with its zone (2026-03-03T14:30:00+01:00); in a mapped file give its column a date pattern with the time',
  };
  return { body, problem };
}
