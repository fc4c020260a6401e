import {
  HomecareError,
  PermanentError,
  TransientError,
  type ErrorContext,
} from '../../shared/errors.js';
import type { Job } from '../../queue/types.js';

function contextOf(error: HomecareError): ErrorContext {
  const context: ErrorContext = { cause: error, hint: error.hint };
  if (error.resource !== undefined) context.resource = error.resource;
  if (error.id !== undefined) context.id = error.id;
  if (error.status !== undefined) context.status = error.status;
  if (error.bodyExcerpt !== undefined) context.bodyExcerpt = error.bodyExcerpt;
  return context;
}

/**
 * The same failure, its message starting with the entity the job is about: a POST's error
 * names no id, and a dead letter must say which salesId or customerNumber it concerns.
 */
export function relabel(error: unknown, subject: string): unknown {
  if (!(error instanceof HomecareError) || error.message.startsWith(subject)) return error;
  const message = `${subject}: ${error.message}`;
  if (error instanceof TransientError) {
    // What the daemon watches, and when the request was sent, stay the failure's.
    return new TransientError(message, {
      ...contextOf(error),
      code: error.code,
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      ownWait: error.ownWait,
      needsOperator: error.needsOperator,
      watched: error.watched,
      ...(error.sentAt === undefined ? {} : { sentAt: error.sentAt }),
    });
  }
  if (error instanceof PermanentError) {
    return new PermanentError(message, { ...contextOf(error), code: error.code });
  }
  return error;
}

/** Runs one platform write; its failure is relabelled with `subject`. */
export async function about<T>(subject: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw relabel(error, subject);
  }
}

/**
 * How often a job whose order, patient or parent is not known yet is tried again before it is
 * dead-lettered: the record may come with the next pull, or from a job of another entity that
 * was queued at the same time.
 */
export const NOT_KNOWN_GRACE_ATTEMPTS = 3;
/** Long enough for the next pull of orders (every minute by default) to bring the record. */
export const NOT_KNOWN_RETRY_AFTER_MS = 60_000;

export function notKnown(
  job: Job,
  what: string,
  hint: string,
  where: { resource: string; id?: string },
): HomecareError {
  const context = { resource: where.resource, ...(where.id === undefined ? {} : { id: where.id }) };
  if (job.attempts < NOT_KNOWN_GRACE_ATTEMPTS) {
    return new TransientError(
      `${what}; it may arrive with the next pull, so the job is tried again`,
      // Our own wait for the next pull: a one-shot pass, which has just pulled, may skip it.
      {
        ...context,
        code: 'NOT_KNOWN_YET',
        hint,
        retryAfterMs: NOT_KNOWN_RETRY_AFTER_MS,
        ownWait: true,
      },
    );
  }
  return new PermanentError(`${what}; ${hint}`, { ...context, code: 'NOT_KNOWN', hint });
}

/** A refusal of the platform with this HTTP status (4xx are permanent). */
export function refusedWith(error: unknown, ...statuses: number[]): error is PermanentError {
  return (
    error instanceof PermanentError && error.status !== undefined && statuses.includes(error.status)
  );
}

/**
 * The ids of existing records a duplicate refusal names: `existingIds` in its JSON body, the
 * signal the spec documents ("an error that carries the IDs of the existing articles"). Undefined
 * when the body carries none, or was cut off: ids found elsewhere in an error may name anything.
 */
export function existingIdsOf(error: PermanentError): string[] | undefined {
  try {
    const body = JSON.parse(error.bodyExcerpt ?? '') as { existingIds?: unknown };
    if (!Array.isArray(body.existingIds)) return undefined;
    const ids = body.existingIds.filter((id): id is string => typeof id === 'string' && id !== '');
    return ids.length > 0 ? ids : undefined;
  } catch {
    // A body that is not JSON or was cut off names no ids; the refusal itself is kept as it came.
    return undefined;
  }
}
