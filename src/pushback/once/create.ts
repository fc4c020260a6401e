import { type ResourceName, triedWriteOf } from '../../contract/index.js';
import type { PlatformRecord } from '../../platform/index.js';
import { unknownOutcome } from '../../platform/errors.js';
import { HomecareError, PermanentError } from '../../shared/errors.js';
import { forgetTriedCreate, INTERRUPTED, recordTriedCreate } from '../../store/index.js';
import type { HandlerContext, Job } from '../../queue/types.js';
import { answeredWith } from './answers.js';
import { existingIdsOf, refusedWith } from './failures.js';
import type { Body } from '../payload.js';

/** Finds the records that already carry a create's natural key (customerNumber, customerId). */
export type NaturalKeyLookup = () => Promise<string[]>;

function several(
  subject: string,
  ids: readonly string[],
  resource: string | undefined,
  cause?: unknown,
): PermanentError {
  const hint = 'merge or archive the duplicates on the platform, then retry this job';
  return new PermanentError(
    `${subject}: the platform holds several records with this key (${ids.join(', ')}); ${hint}`,
    {
      ...(resource === undefined ? {} : { resource }),
      code: 'DUPLICATES_ON_PLATFORM',
      hint,
      ...(cause === undefined ? {} : { cause }),
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
  if (ids.length > 1) throw several(subject, ids, error.resource, error);
  return ids[0];
}

/**
 * How a create finds what an earlier try of it may have made, where the contract offers a
 * lookup that shows such a record whoever wrote it, so that finding none means there is none.
 */
export interface CreateLookup {
  resource: string;
  find: NaturalKeyLookup;
  /** Makes the record found the job's, as the create would have (an update with its body). */
  take: (id: string) => Promise<PlatformRecord>;
}

function mayExist(subject: string, outcome: string, error?: HomecareError): PermanentError {
  const hint =
    'look for it on the platform, then `queue retry` (it is not there: it is sent again) or `queue drop` (it is)';
  return new PermanentError(
    `${subject}: the create was sent, but ${outcome}; the platform offers no lookup that would show whether it made the record, so it is not sent again: it may already exist on the platform — check, then \`queue retry\` or \`queue drop\``,
    {
      ...(error?.resource === undefined ? {} : { resource: error.resource }),
      ...(error?.status === undefined ? {} : { status: error.status }),
      ...(error?.bodyExcerpt === undefined ? {} : { bodyExcerpt: error.bodyExcerpt }),
      code: 'CREATE_OUTCOME_UNKNOWN',
      hint,
      ...(error === undefined ? {} : { cause: error }),
    },
  );
}

const outcomeUnknown = (error: unknown): boolean =>
  unknownOutcome(error) !== undefined ||
  (error instanceof HomecareError && error.code === 'CREATE_OUTCOME_UNKNOWN');

/** A create: what it is about (for messages), the resource it makes and the body it sends. */
export interface Create {
  subject: string;
  resource: ResourceName;
  body: Body;
}

/**
 * `create` (the create and whatever finds or takes a record an earlier try made), noting it as
 * tried when its outcome is unknown: the record it may have made has no `_id` we know, so the
 * pull that lists it recognises it by the values sent (pullStore, `claimedByTriedCreate`) and
 * does not hand the ERP its own record as the platform's. Once a try has its answer, the note
 * goes: the answer's fingerprint recognises the record from then on.
 */
export async function createNoting<Answer>(
  job: Job,
  context: HandlerContext,
  made: Create,
  create: () => Promise<Answer>,
): Promise<Answer> {
  try {
    const answer = await create();
    if (job.lastError !== undefined) forgetTriedCreate(context.store, made.resource, job.id);
    return answer;
  } catch (error) {
    if (outcomeUnknown(error)) {
      recordTriedCreate(context.store, made.resource, job.id, triedWriteOf(made.body));
    }
    throw error;
  }
}

/**
 * A create that is not made twice when a try's answer is lost (cut off, timed out, a 5xx) after
 * the platform may have made the record. With a lookup, a job that failed before (its
 * `lastError`, which `queue retry` keeps) looks first and takes the one record it finds; the
 * failed try itself is retried like any other. Without one, such a try is dead-lettered at once
 * for a person to check: posting again blindly could make a second record. So is a job that
 * was running when its process stopped (`INTERRUPTED`): its POST may have gone out. So is a
 * replay's (`inbox replay`): the first message's create was made, and a second would double it;
 * with a lookup, a replay looks first as a retry does. `queue retry` then posts again (the
 * person found none), `queue drop` leaves the one the platform has.
 */
export function createOnce(
  job: Job,
  context: HandlerContext,
  made: Create,
  create: () => Promise<PlatformRecord>,
  lookup?: CreateLookup,
): Promise<PlatformRecord> {
  return createNoting(job, context, made, () =>
    createOrTake(job, context, made.subject, create, lookup),
  );
}

async function createOrTake(
  job: Job,
  context: HandlerContext,
  subject: string,
  create: () => Promise<PlatformRecord>,
  lookup?: CreateLookup,
): Promise<PlatformRecord> {
  // A replay (`inbox replay`) repeats a message whose own create may have been made already.
  const mayHaveMade = job.lastError !== undefined || job.replay === true;
  if (lookup !== undefined && mayHaveMade) {
    const ids = await lookup.find();
    if (ids.length > 1) throw several(subject, ids, lookup.resource);
    const [id] = ids;
    if (id !== undefined) {
      context.logger.info(
        { resource: lookup.resource, id, jobId: job.id },
        'an earlier try of this create made the record; it is updated, not created again',
      );
      return answeredWith(context, await lookup.take(id), true);
    }
  }
  if (lookup === undefined && job.lastError === INTERRUPTED) {
    throw mayExist(subject, 'the process stopped before its answer was kept');
  }
  if (lookup === undefined && job.replay === true) {
    throw mayExist(subject, 'it repeats a message (`inbox replay`) whose create was made before');
  }
  try {
    return answeredWith(context, await create());
  } catch (error) {
    const outcome = lookup === undefined ? unknownOutcome(error) : undefined;
    if (outcome === undefined || !(error instanceof HomecareError)) throw error;
    throw mayExist(subject, outcome, error);
  }
}
