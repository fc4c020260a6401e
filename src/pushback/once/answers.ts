import type { PlatformRecord } from '../../platform/index.js';
import type { HandlerContext, NothingSent } from '../../queue/types.js';

/**
 * Notes, for the job's done line, the HTTP status the platform answered the write with whose
 * answer `record` is (`existing`: a create found the record there already and updated it).
 * Returns the record, so a write's call reads as one expression.
 */
export function answeredWith(
  context: HandlerContext,
  record: PlatformRecord,
  existing = false,
): PlatformRecord {
  const status = context.client.answerStatus(record);
  if (status !== undefined) {
    context.answered?.({ sent: true, status, ...(existing ? { existing: true as const } : {}) });
  }
  return record;
}

/** Notes, for the job's done line, that the job sent nothing, and why. */
export function nothingSent(context: HandlerContext, why: NothingSent): void {
  context.answered?.({ sent: false, why });
}
