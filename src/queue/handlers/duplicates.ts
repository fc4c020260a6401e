import { PermanentError } from '../../shared/errors.js';
import { existingIdsOf, refusedWith } from './failures.js';

/**
 * The one existing record a create was refused for ("already exists", carrying its ids), or
 * undefined when the refusal is about something else. Several ids mean the platform holds
 * duplicates, which a person must resolve.
 */
export function existingIdOf(error: unknown, subject: string): string | undefined {
  if (!refusedWith(error, 400, 409)) return undefined;
  const ids = existingIdsOf(error);
  if (ids.length <= 1) return ids[0];
  const hint = 'merge or archive the duplicates on the platform, then retry this job';
  throw new PermanentError(
    `${subject}: the platform holds several records with this key (${ids.join(', ')}); ${hint}`,
    {
      ...(error.resource === undefined ? {} : { resource: error.resource }),
      code: 'DUPLICATES_ON_PLATFORM',
      hint,
      cause: error,
    },
  );
}
