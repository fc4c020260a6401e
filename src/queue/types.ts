import type { Logger } from 'pino';
import { isResourceName, type Contract, type ResourceName } from '../contract/index.js';
import type { PlatformClient } from '../platform/index.js';
import type { Clock } from '../shared/clock.js';
import { inKinds, type KindFilter, type Store } from '../store/index.js';

/**
 * The acknowledgement of what the ERP received: queued by the delivery stage, written by the
 * push-back stage, so its kinds are spelled here, where both can read them.
 */
export const ACK_KINDS = ['ack.singleOrder', 'ack.directOrder', 'ack.integratedCare'] as const;
export type AckKind = (typeof ACK_KINDS)[number];
const ACK_PREFIX = 'ack.';

/** The resource an `ack.<resource>` kind acknowledges; undefined for other kinds. */
export function acknowledgedResource(kind: string): string | undefined {
  return (ACK_KINDS as readonly string[]).includes(kind)
    ? kind.slice(ACK_PREFIX.length)
    : undefined;
}
export const DELIVER_PREFIX = 'deliver.';
export type DeliverKind = `deliver.${ResourceName}`;
/**
 * A job's kind as stored: the hand-over of a pulled record version to the ERP (one kind per
 * resource), the acknowledgement, and one kind per push-back kind the ERP sends. The queue knows
 * kinds only as the handlers it is given (src/app/ hands it the stages' registries).
 */
export type JobKind = string;

/** The kinds of the worker's two channels: hand-overs to the ERP, and writes to the platform. */
export const HAND_OVERS: KindFilter = { prefix: DELIVER_PREFIX, inside: true };
export const PLATFORM_WRITES: KindFilter = { prefix: DELIVER_PREFIX, inside: false };

/** Whether jobs of `kind` write to the platform: those a push pause holds back. */
export const isPlatformWrite = (kind: string): boolean => inKinds(PLATFORM_WRITES, kind);

export const deliverKind = (resource: ResourceName): DeliverKind => `deliver.${resource}`;

/** The resource a `deliver.<resource>` kind hands over; undefined for other kinds. */
export function deliveredResource(kind: string): ResourceName | undefined {
  if (!kind.startsWith(DELIVER_PREFIX)) return undefined;
  const resource = kind.slice(DELIVER_PREFIX.length);
  return isResourceName(resource) ? resource : undefined;
}

/** A job as a handler sees it. */
export interface Job {
  id: number;
  kind: JobKind;
  /** Jobs with one key run one at a time, in the order they were queued (e.g. `singleOrder:<_id>`). */
  entityKey: string;
  payload: Record<string, unknown>;
  /** Tries so far, this one not counted. */
  attempts: number;
  /**
   * Why the last failed try failed; absent while none has. Kept when `queue retry` counts
   * `attempts` from zero again: a create whose earlier try may have reached the platform must
   * still look for what it made before it posts again.
   */
  lastError?: string;
  /**
   * Set on the job of an operator's replay of an ERP message (`inbox replay`): the first
   * message's job may have made this write already, so it is read before it is sent, as before
   * a retry (pushback/once/write.ts).
   */
  replay?: true;
  createdAt: string;
}

/** A job to queue. */
export interface NewJob {
  kind: JobKind;
  entityKey: string;
  payload: Record<string, unknown>;
  /** A second job with the same key is not queued again (e.g. `ack:singleOrder:<_id>:<version>`). */
  idempotencyKey?: string;
  /**
   * The job carries its entity's whole state, so it makes older pending jobs of its kind and
   * entity pointless and replaces them. Its kind decides (a push-back kind's descriptor).
   */
  supersedes?: boolean;
}

/** Whether jobs of `kind` carry their entity's whole state (see `NewJob.supersedes`). */
export type Superseding = (kind: string) => boolean;

/** Why a job that writes to the platform was done without sending anything. */
export type NothingSent =
  'already on the platform' | 'acknowledgement turned off' | 'changed on the platform since';

/**
 * What became of a job's platform write, for the line that reports the job done: sent, with the
 * HTTP status the platform answered (`existing` when a create found the record there already and
 * updated it instead), sent with its answer lost and a read showing the change applied, or not
 * sent, and why. Status codes and words only: nothing of the record goes to the log.
 */
export type PlatformAnswer =
  | { sent: true; status: number; existing?: true }
  | { sent: true; answerLost: true }
  | { sent: false; why: NothingSent };

/** A PATCH or PUT of one record a job sends: what it sets, and the id its single read takes. */
export interface WriteUnderWay {
  resource: ResourceName;
  id: string;
  body: Record<string, unknown>;
}

/** What a handler may use; everything with side effects comes in here. */
export interface HandlerContext {
  client: PlatformClient;
  store: Store;
  contract: Contract;
  clock: Clock;
  logger: Logger;
  /**
   * Notes what became of the job's platform write; the queue gives each job its own and logs
   * the last note with the job done. Absent where a handler is called outside the queue.
   */
  answered?: (answer: PlatformAnswer) => void;
  /**
   * Notes a write as it is sent: until the job's outcome is committed, a pull that lists the
   * version it made knows it as ours (WritesUnderWay). Absent outside the queue.
   */
  writing?: (write: WriteUnderWay) => void;
}

/**
 * What a job's success makes true in the store (e.g. the ledger's delivered mark and the
 * acknowledgement it calls for), written in the transaction that completes the job, so that
 * the two commit together or not at all. Synchronous, like every transaction.
 */
export type Completion = () => void;

/**
 * Does the job's work (on the platform, or hands it to the ERP). Resolves when done, with a
 * Completion where its success has to be recorded. Throws a TransientError to be tried again
 * later (its `retryAfterMs` honoured) and a PermanentError to be dead-lettered at once, with a
 * message a person understands and, where the other side answered, its status and body.
 * Every handler must be idempotent: a job may run again after a crash.
 */
export type Handler = (job: Job, context: HandlerContext) => Promise<Completion | void>;

/** How one job of a batch went: done (with its Completion), or failed like a handler throws. */
export type JobResult = { ok: true; complete?: Completion } | { ok: false; error: unknown };

/**
 * Runs the ready jobs of one kind together, as one hand-over (one batch file), up to `maxJobs`
 * at once; each job is then settled by its own result, in the order given. `batch` numbers the
 * hand-over: numbers grow, and jobs handed over again after a crash come with their old one.
 */
export interface BatchHandler {
  readonly maxJobs: number;
  run(jobs: readonly Job[], batch: number, context: HandlerContext): Promise<JobResult[]>;
}

export type HandlerRegistry = Readonly<Record<JobKind, Handler | BatchHandler>>;

/** The handler of `kind`; undefined for a kind none was given for (a job from a newer build). */
export const registeredHandler = (
  handlers: HandlerRegistry,
  kind: string,
): Handler | BatchHandler | undefined =>
  Object.hasOwn(handlers, kind) ? handlers[kind] : undefined;

export const isBatchHandler = (handler: Handler | BatchHandler): handler is BatchHandler =>
  typeof handler === 'object';
