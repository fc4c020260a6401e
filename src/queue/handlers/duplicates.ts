import { PermanentError } from '../../shared/errors.js';
import type { HandlerContext } from '../types.js';
import { existingIdsOf, refusedWith } from './failures.js';

/** Finds the records that already carry a create's natural key (customerNumber, customerId). */
export type NaturalKeyLookup = () => Promise<string[]>;

function several(error: PermanentError, subject: string, ids: readonly string[]): PermanentError {
  const hint = 'merge or archive the duplicates on the platform, then retry this job';
  return new PermanentError(
    `${subject}: the platform holds several records with this key (${ids.join(', ')}); ${hint}`,
    {
      ...(error.resource === undefined ? {} : { resource: error.resource }),
      code: 'DUPLICATES_ON_PLATFORM',
      hint,
      cause: error,
    },
  );
}

/**
 * The one existing record a create was refused for, or undefined when the refusal is about
 * something else (the caller then lets the refusal stand). Only the documented signal is taken
 * as it is (`existingIds`); any other 400/409 is checked by looking the natural key up, so an
 * error that merely names some id never redirects the write to another record. Several records
 * with the key are for a person to resolve.
 */
export async function existingIdOf(
  error: unknown,
  subject: string,
  lookup: NaturalKeyLookup,
  context: HandlerContext,
): Promise<string | undefined> {
  if (!refusedWith(error, 400, 409)) return undefined;
  const signalled = existingIdsOf(error);
  const ids = signalled ?? (await lookup());
  if (signalled === undefined) {
    context.logger.info(
      { resource: error.resource, status: error.status, found: ids.length },
      'create refused without existingIds; looked the natural key up',
    );
  }
  if (ids.length > 1) throw several(error, subject, ids);
  return ids[0];
}
