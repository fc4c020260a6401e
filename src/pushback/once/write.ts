import { isDeepStrictEqual } from 'node:util';
import {
  derivedOnWrite,
  isFilledEntryField,
  liveEntries,
  STAMP_FIELDS,
  STATUS_CONTROLLED,
  STATUS_FILTERS,
  type ResourceName,
  fingerprintOf,
  triedWriteOf,
} from '../../contract/index.js';
import { outageKindOf, type PlatformRecord } from '../../platform/index.js';
import { unknownOutcome } from '../../platform/errors.js';
import { errorMessage, failureLevel, HomecareError } from '../../shared/errors.js';
import { getMirror, recordOwnWrite, type Store } from '../../store/index.js';
import type { HandlerContext, Job } from '../../queue/types.js';
import { answeredWith, nothingSent } from './answers.js';
import { refusedWith } from './failures.js';
import { isObject, type Body } from '../payload.js';

/**
 * How far before the job was queued a change it made may be stamped: the platform's clock is
 * known only as well as the skew measured from its `Date` headers.
 */
const CLOCK_MARGIN_MS = 5 * 60_000;

/** The platform time from which on anything an earlier try of `job` did is stamped. */
export function changedSince(job: Job, context: HandlerContext): Date {
  return new Date(Date.parse(job.createdAt) + context.client.skewMs() - CLOCK_MARGIN_MS);
}

/** A PATCH or PUT of one record: what it sets, and the id a read of the record takes. */
export interface Change {
  resource: ResourceName;
  /** The `{id}` of the resource's single read: the `_id`, for ERP orders the salesId. */
  id: string;
  /** The fields the write sets, with our values. */
  body: Body;
}

type StatusControlled = (typeof STATUS_CONTROLLED)[number];

const isStatusControlled = (resource: ResourceName): resource is StatusControlled =>
  (STATUS_CONTROLLED as readonly string[]).includes(resource);

/** GET /{resource}/{id}; undefined when the platform holds no such record (404). */
async function singleRead(context: HandlerContext, change: Change) {
  try {
    return await context.client.record(change.resource, 'get', { id: change.id });
  } catch (error) {
    if (refusedWith(error, 404)) return undefined;
    throw error;
  }
}

/**
 * The records of `resource` its status lists (all but `archived`) show changed since `job` was
 * queued: where anything an earlier try of it did is to be seen. Orders and care arrangements
 * have no single read, but these lists show our own changes (spec document 1, rule 3: control
 * is by status change, not by the key).
 */
export async function* changedSinceQueued(
  job: Job,
  context: HandlerContext,
  resource: StatusControlled,
): AsyncGenerator<PlatformRecord> {
  const updatedAfter = changedSince(job, context);
  for (const status of STATUS_FILTERS[resource].filter((s) => s !== 'archived')) {
    yield* context.client.list(resource, { status, updatedAfter });
  }
}

/**
 * A record the status lists show changed since the job was queued. Not found there: nobody
 * changed the record since, so our write did not apply either.
 */
async function fromStatusLists(
  job: Job,
  context: HandlerContext,
  resource: StatusControlled,
  id: string,
): Promise<PlatformRecord | undefined> {
  for await (const record of changedSinceQueued(job, context, resource)) {
    if (record._id === id) return record;
  }
  return undefined;
}

/**
 * The record as the platform holds it now, read the way the contract offers: its single read,
 * else (orders, care arrangements) its status lists. Patient notes, contracts, devices outside
 * variant B and ERP orders in variant A have neither (their lists leave our own writes out,
 * rule 2): the mirror is all there is, and it shows our change only once a pull brought it.
 */
async function currentOf(
  job: Job,
  context: HandlerContext,
  change: Change,
): Promise<PlatformRecord | undefined> {
  const { resource, id } = change;
  if (context.contract.find(resource, 'get')) return singleRead(context, change);
  if (isStatusControlled(resource)) return fromStatusLists(job, context, resource, id);
  return getMirror(context.store, resource, id)?.record;
}

/**
 * Does `actual` hold `ours`? Objects may carry more than we sent only where the platform stamps
 * or names what it stores (a nested entry's `_id`, `timestamp`, `archived: false`); anything
 * else would be another value than ours. Lists are compared by their live entries: a PUT keeps
 * the entries it no longer holds, archived. A field we clear (null) holds nothing when the
 * platform leaves it out.
 */
function holds(actual: unknown, ours: unknown): boolean {
  if (ours === null) return actual === null || actual === undefined;
  if (Array.isArray(ours)) {
    if (!Array.isArray(actual)) return false;
    const kept = liveEntries(actual);
    const sent = liveEntries(ours);
    return kept.length === sent.length && sent.every((value, index) => holds(kept[index], value));
  }
  if (!isObject(ours)) return isDeepStrictEqual(actual, ours);
  if (!isObject(actual)) return false;
  const extra = Object.keys(actual).filter((key) => !Object.hasOwn(ours, key));
  return (
    extra.every((key) => STAMP_FIELDS.includes(key) || isFilledEntryField(key, actual[key])) &&
    Object.entries(ours).every(([key, value]) => holds(actual[key], value))
  );
}

/** The record carries exactly our change: every field we write holds our value. */
export function carriesChange(record: PlatformRecord, body: Body): boolean {
  return Object.entries(body).every(([field, value]) => holds(record[field], value));
}

/**
 * After a try whose outcome is unknown, the fingerprint of the change as it would apply to the
 * record we know: a pull that lists the version our lost write made (orders are never left out
 * of our lists, spec document 1, rule 3) knows it as our own and does not hand it to the ERP.
 * No editor: the answer that would have named it never came. A version that carries exactly
 * our values and nothing else new is no news to the ERP, whoever made it, so a try the
 * platform never took leaves nothing wrong behind. Written at once, not with the job's
 * outcome: only such a failure writes it, which is rare. Also kept for the writes made after the
 * backup a database was restored from, whose answers the backup lacks (operations/restored.ts). False,
 * and nothing kept, when the mirror does not hold the record.
 */
export function recordTriedChange(store: Store, change: Change): boolean {
  const before = getMirror(store, change.resource, change.id);
  if (before === undefined) return false;
  const { resource, id, body } = change;
  const tried = { ...before.record, ...body };
  const write = fingerprintOf(body, tried, before.record, derivedOnWrite(resource));
  // The platform may add to the objects inside what we sent (an entry's `_id`): by leaves.
  const sent = Object.fromEntries(write.fields.map((field) => [field, tried[field]]));
  recordOwnWrite(store, resource, id, { ...write, ...triedWriteOf(sent), editor: null });
  return true;
}

/** The record as the platform holds it now (currentOf), when it carries our change. */
async function carryingChange(
  job: Job,
  context: HandlerContext,
  change: Change,
): Promise<PlatformRecord | undefined> {
  const current = await currentOf(job, context, change);
  return current !== undefined && carriesChange(current, change.body) ? current : undefined;
}

/**
 * The record read right after a try whose outcome is unknown, when it carries our change: the
 * try applied, and this version is its answer. A read the platform refuses or does not answer
 * leaves the outcome unknown (said in the log: the write's own error fails the job); anything
 * else is a fault of ours and fails the job with its own error. A read failing in a platform
 * outage is said at debug: the outage is one state (platform/failures.ts), which the write's own
 * failure joins, and a warning per job would flood the log while it lasts (design.md, Wave 4).
 */
async function appliedAfterAll(
  job: Job,
  context: HandlerContext,
  change: Change,
): Promise<PlatformRecord | undefined> {
  try {
    return await carryingChange(job, context, change);
  } catch (error) {
    if (!(error instanceof HomecareError)) throw error;
    const inOutage = outageKindOf(error) !== undefined || failureLevel(error) === 'debug';
    context.logger[inOutage ? 'debug' : 'warn'](
      { resource: change.resource, id: change.id, jobId: job.id, err: errorMessage(error) },
      "the write's answer was lost and the read after it failed too; the write counts as not applied and is retried",
    );
    return undefined;
  }
}

/**
 * `write`, noted as under way until the job's outcome is committed (a pull meanwhile knows the
 * version it makes as ours); when its outcome is unknown, the record is read at once: a version carrying our
 * change is the write's answer (remembered as any answer, so the pull that lists it knows it
 * exactly). Else the change is noted as tried (recordTriedChange) and the job fails, to be retried.
 */
async function sendNoting(
  job: Job,
  context: HandlerContext,
  change: Change,
  write: () => Promise<PlatformRecord>,
): Promise<PlatformRecord> {
  context.writing?.(change);
  try {
    return answeredWith(context, await write());
  } catch (error) {
    if (unknownOutcome(error) === undefined) throw error;
    const applied = await appliedAfterAll(job, context, change);
    if (applied !== undefined) {
      context.answered?.({ sent: true, answerLost: true });
      context.logger.info(
        { resource: change.resource, id: change.id, jobId: job.id },
        "the write's answer was lost, but the record read after it carries the change; taken as the answer",
      );
      return applied;
    }
    recordTriedChange(context.store, change);
    throw error;
  }
}

/**
 * How much earlier than the job was queued a record its earlier try made may say it was
 * created: the skew estimate's own error (the `Date` header's second, half a round trip).
 * Unlike CLOCK_MARGIN_MS this bound must stay tight: a record a user made a minute before the
 * job is not the job's.
 */
const CREATED_MARGIN_MS = 5_000;

/** Whether `record` was made after `job` was queued: by an earlier try of it, if it is a create. */
function madeSinceQueued(job: Job, context: HandlerContext, record: PlatformRecord): boolean {
  if (typeof record.createdAt !== 'string') return job.lastError !== undefined;
  const queued = Date.parse(job.createdAt) + context.client.skewMs() - CREATED_MARGIN_MS;
  return Date.parse(record.createdAt) >= queued;
}

/**
 * Whether the record a create-or-update wrote (`answer`) was there before the job: then the
 * write changed a record the platform held, with whatever else it holds (remember.ts,
 * `updates`); else an earlier try of the job made it, and it holds nothing but ours.
 */
export function existedBefore(job: Job, context: HandlerContext, answer: PlatformRecord): boolean {
  return job.lastError === undefined || !madeSinceQueued(job, context, answer);
}

/**
 * Whether `record`, found by its key on the retry of a create-or-update, was made by the job's
 * earlier try (a create whose answer was lost) and changed by someone else since: created
 * after the job was queued, without our values now. Writing the job's body again would undo
 * that later change on the platform; the pull hands the record, as it now is, to the ERP.
 */
export function madeThenChanged(
  job: Job,
  context: HandlerContext,
  record: PlatformRecord,
  body: Body,
): boolean {
  if (job.lastError === undefined || typeof record.createdAt !== 'string') return false;
  return madeSinceQueued(job, context, record) && !carriesChange(record, body);
}

/**
 * A PATCH or PUT that is not sent again once an earlier try of it applied. A try whose answer
 * was lost (cut off after the platform applied it, a 5xx, our time-out) leaves the job with a
 * `lastError`, as does a crash in the middle of it (INTERRUPTED): before the retry the record is
 * read, and when it already carries our change, that version is the write's answer. The handler
 * then remembers it like any answer (remember.ts), so the pull knows the version as our own
 * and never hands it to the ERP as a platform change. So is an operator's replay of an ERP
 * message (`replay`), whose first job may have made the write: it writes only what the platform
 * no longer holds. A first try writes at once: nothing can have applied yet, and the read would
 * only cost a request.
 */
export async function writeOnce(
  job: Job,
  context: HandlerContext,
  change: Change,
  write: () => Promise<PlatformRecord>,
): Promise<PlatformRecord> {
  if (job.lastError === undefined && job.replay !== true) {
    return sendNoting(job, context, change, write);
  }
  const current = await carryingChange(job, context, change);
  if (current === undefined) return sendNoting(job, context, change, write);
  nothingSent(context, 'already on the platform');
  context.logger.info(
    { resource: change.resource, id: change.id, jobId: job.id },
    job.lastError === undefined
      ? 'the platform holds what this replayed message writes already; its version is taken as the answer, nothing sent'
      : 'an earlier try of this write was applied; its version is taken as the answer, nothing sent',
  );
  return current;
}
