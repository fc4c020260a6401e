import type { Logger } from 'pino';
import type { Contract } from '../contract/index.js';
import type { PlatformClient } from '../platform/index.js';
import type { Clock } from '../shared/clock.js';
import type { Store } from '../store/index.js';
import { INBOX_KINDS, type InboxKind } from '../erp/adapter.js';
import type { JobReport } from './jobReport.js';

/**
 * Every kind of job the queue runs: the acknowledgement of what the ERP received, and one kind
 * per inbox kind the ERP sends back.
 */
export const ACK_KINDS = ['ack.singleOrder', 'ack.directOrder', 'ack.integratedCare'] as const;
export type AckKind = (typeof ACK_KINDS)[number];
/**
 * A record version the ERP refused (or that failed too often) sits in the dead letters as this
 * kind; retrying it hands the version to the ERP again.
 */
export const REDELIVER_KIND = 'erp.redeliver';
export type JobKind = AckKind | InboxKind | typeof REDELIVER_KIND;

const JOB_KINDS: ReadonlySet<string> = new Set<string>([
  ...ACK_KINDS,
  ...INBOX_KINDS,
  REDELIVER_KIND,
]);

export function isJobKind(kind: string): kind is JobKind {
  return JOB_KINDS.has(kind);
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
  createdAt: string;
}

/** A job to queue. */
export interface NewJob {
  kind: JobKind;
  entityKey: string;
  payload: Record<string, unknown>;
  /** A second job with the same key is not queued again (e.g. `ack:singleOrder:<_id>:<version>`). */
  idempotencyKey?: string;
}

/** What a handler may use; everything with side effects comes in here. */
export interface HandlerContext {
  client: PlatformClient;
  store: Store;
  contract: Contract;
  clock: Clock;
  logger: Logger;
}

/**
 * Does the job's work on the platform. Resolves when done. Throws a TransientError to be tried
 * again later (its `retryAfterMs` honoured) and a PermanentError to be dead-lettered at once,
 * with a message a person understands and, where the platform answered, its status and body.
 * Every handler must be idempotent: a job may run again after a crash. A delivery handler
 * resolves with how many record versions it handed to the ERP, for the metrics.
 */
export type Handler = (job: Job, context: HandlerContext) => Promise<void | JobReport>;

export type HandlerRegistry = Partial<Record<JobKind, Handler>>;
