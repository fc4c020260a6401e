import { isIsoDateTime } from '../../contract/index.js';
import type { Problem } from './problems.js';

/**
 * The ERP's own stamp of a message is the field `erpTimestamp`, which every kind may carry (a
 * column of the ERP's layout mapped to it, or a field of a JSON message): when the ERP changed
 * what the message says, an ISO 8601 date-time with its zone. It orders the messages of one
 * entity; it is what the message says, so it counts in its content, and it is never written to
 * the platform.
 */
export const ERP_STAMP = 'erpTimestamp';

type Body = Record<string, unknown>;

/** A message apart from its stamp; `problem`: why the stamp it gave is none. */
export interface Stamped {
  body: Body;
  stamp?: string;
  problem?: Problem;
}

/**
 * The message without its stamp, and the stamp as one instant in UTC (so that two stamps compare
 * as text), or why the stamp is none.
 */
export function withoutStamp(message: Body): Stamped {
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
