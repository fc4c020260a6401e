import type { Logger } from 'pino';

/** A record set aside in quarantine: by its `_id` (none when it had none) and why. */
export interface QuarantineNote {
  id: string | undefined;
  reason: string;
}

/** The records a pull run put in quarantine anew: named up to MOST_NAMED, the rest counted. */
export interface NewlyQuarantined {
  named: readonly QuarantineNote[];
  more: number;
}

/** The most records a run names when it quarantines them; the rest are counted. */
export const MOST_NAMED = 20;

/** `newly` with the quarantine notes of a batch added (counted once MOST_NAMED are named). */
export function withNotes(
  newly: NewlyQuarantined | undefined,
  notes: readonly QuarantineNote[] = [],
): NewlyQuarantined | undefined {
  if (notes.length === 0) return newly;
  const named = [...(newly?.named ?? []), ...notes];
  const more = (newly?.more ?? 0) + Math.max(0, named.length - MOST_NAMED);
  return { named: named.slice(0, MOST_NAMED), more };
}

/**
 * One warning per record a run put in quarantine anew, by resource, `_id` and reason (the same
 * record listed again is no news); past MOST_NAMED in one run, one more line counts the rest.
 */
export function logQuarantined(
  logger: Logger,
  resource: string,
  newly: NewlyQuarantined | undefined,
): void {
  if (newly === undefined) return;
  for (const { id, reason } of newly.named) {
    const which = id === undefined ? 'a record without _id' : id;
    const find = id === undefined ? 'homecare-sync status' : `homecare-sync trace ${id}`;
    logger.warn(
      { resource, _id: id, reason },
      `quarantined ${resource} ${which}: ${reason}; it is not handed to the ERP (${find})`,
    );
  }
  if (newly.more > 0) {
    logger.warn(
      { resource, more: newly.more },
      `quarantined ${newly.more} more ${resource} record(s) in the same pull; homecare-sync status lists them`,
    );
  }
}
