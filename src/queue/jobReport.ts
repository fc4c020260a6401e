import { acknowledgedResource, deliveredResource, type PlatformAnswer } from './types.js';
import type { Logger } from '../log/index.js';
import type { Clock } from '../shared/clock.js';
import { getMirrorField, type StoredJob, type Store } from '../store/index.js';

/** How one try of a job ended. */
export type JobOutcome = 'done' | 'retry' | 'dead';

/** Counts what the queue does (the daemon's metrics implement it). */
export interface JobObserver {
  jobEnded(kind: string, outcome: JobOutcome): void;
  recordsDelivered(resource: string, count: number): void;
  /** Seconds from the record's creation on the platform to its acknowledgement. */
  acknowledged(resource: string, latencySeconds: number): void;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Seconds since the mirrored record was created, when the mirror knows when that was. */
function secondsSinceCreated(store: Store, clock: Clock, resource: string, id: string) {
  const createdAt = text(getMirrorField(store, resource, id, 'createdAt')?.value);
  const created = createdAt === undefined ? Number.NaN : Date.parse(createdAt);
  return Number.isNaN(created) ? undefined : (clock.now().getTime() - created) / 1000;
}

/** An ERP order's parcels by their tracking codes (else their links), as one value. */
function trackingOf(value: unknown): string | undefined {
  if (!Array.isArray(value)) return undefined;
  const parcels = value.flatMap((parcel: unknown) => {
    if (parcel === null || typeof parcel !== 'object') return [];
    const { trackingCode, trackingLink } = parcel as Record<string, unknown>;
    const shown = text(trackingCode) ?? text(trackingLink);
    return shown === undefined ? [] : [shown];
  });
  return parcels.length === 0 ? undefined : parcels.join(' and ');
}

/**
 * The values an operator looks for in a push-back's log line and its trace: the status, the
 * salesId, the ERP's order number and the tracking it wrote (no personal field: those stay out
 * of the log).
 */
export function sentValues(payload: Readonly<Record<string, unknown>>): {
  status?: number | string;
  salesId?: string;
  erpOrderNumber?: string;
  tracking?: string;
} {
  const { status } = payload;
  const salesId = text(payload['salesId']);
  const erpOrderNumber = text(payload['erpOrderNumber']);
  const tracking = trackingOf(payload['trackingInfo']);
  return {
    ...(typeof status === 'number' || typeof status === 'string' ? { status } : {}),
    ...(salesId === undefined ? {} : { salesId }),
    ...(erpOrderNumber === undefined ? {} : { erpOrderNumber }),
    ...(tracking === undefined ? {} : { tracking }),
  };
}

/** sentValues as the words of a line: ` (status 3, salesId SO-1)`; nothing when none. */
export function sentText(payload: Readonly<Record<string, unknown>>): string {
  const what = Object.entries(sentValues(payload)).map(([field, value]) => `${field} ${value}`);
  return what.length === 0 ? '' : ` (${what.join(', ')})`;
}

/**
 * What the platform answered the job's write, as fields (`answerStatus`: the HTTP status) and as
 * the words appended to its line; nothing where the handler noted no answer.
 */
export function answerOf(answer: PlatformAnswer | undefined): {
  fields: Record<string, unknown>;
  said: string;
} {
  if (answer === undefined) return { fields: {}, said: '' };
  if (!answer.sent) {
    return { fields: { sent: false, notSent: answer.why }, said: `: ${answer.why}, nothing sent` };
  }
  if ('answerLost' in answer) {
    return {
      fields: { sent: true, answerLost: true },
      said: ': its answer was lost, but a read shows the change applied',
    };
  }
  const existing = answer.existing === true;
  return {
    fields: { sent: true, answerStatus: answer.status, ...(existing ? { existing } : {}) },
    said: `: platform answered ${answer.status}${existing ? ' (the record was there already: updated, not created)' : ''}`,
  };
}

export interface DoneContext {
  store: Store;
  clock: Clock;
  logger: Logger;
  observer?: JobObserver | undefined;
}

/**
 * The log line and the counts of a job done. Acknowledgements and push-backs are what an
 * operator asks about ("did order X reach the platform?"), so each gets an info line, with what
 * the platform answered (`answer`, as the handler noted it); the rest (redeliveries, deliveries,
 * which log their own batches) stay at debug.
 */
export function reportDone(context: DoneContext, job: StoredJob, answer?: PlatformAnswer): void {
  const { logger, observer } = context;
  const fields = {
    jobId: job.id,
    kind: job.kind,
    entityKey: job.entityKey,
    tries: job.attempts + 1,
  };
  observer?.jobEnded(job.kind, 'done');
  const resource = acknowledgedResource(job.kind);
  if (resource !== undefined) {
    const id = text(job.payload.id) ?? job.entityKey;
    const { fields: answered, said } = answerOf(answer);
    logger.info(
      { ...fields, resource, id, ...answered },
      `acknowledged ${resource} ${id} on the platform${said}`,
    );
    if (observer === undefined) return;
    const latency = secondsSinceCreated(context.store, context.clock, resource, id);
    if (latency !== undefined) observer.acknowledged(resource, latency);
    return;
  }
  // A deliver job hands exactly one record version to the ERP.
  const delivered = deliveredResource(job.kind);
  if (delivered !== undefined) {
    observer?.recordsDelivered(delivered, 1);
    logger.debug(fields, `queue: job ${job.id} done`);
    return;
  }
  // What is neither a hand-over nor an acknowledgement is a push-back kind (one the worker was
  // given a handler for: a job of no known kind is dead, never done).
  const { fields: answered, said } = answerOf(answer);
  logger.info(
    { ...fields, ...sentValues(job.payload), ...answered },
    `pushed ${job.kind} ${job.entityKey} back to the platform${sentText(job.payload)}${said}`,
  );
}
