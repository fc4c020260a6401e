import type { Logger } from '../log/index.js';
import type { Clock } from '../shared/clock.js';
import { HomecareError } from '../shared/errors.js';
import type { JobFailure, NewDeadLetter, StoredJob, Store } from '../store/index.js';
import {
  addDeadLetter,
  completeJob,
  markDead,
  scheduleRetry,
  transaction,
} from '../store/index.js';
import { reportDone, type JobObserver, type JobReport } from './jobReport.js';
import { failureOutcome, type RetrySettings } from './outcome.js';
import {
  isJobKind,
  type HandlerContext,
  type HandlerRegistry,
  type Job,
  type JobKind,
} from './types.js';

export interface JobRunner {
  store: Store;
  handlers: HandlerRegistry;
  context: HandlerContext;
  clock: Clock;
  logger: Logger;
  retry: RetrySettings;
  random: () => number;
  /** Counts jobs by kind and outcome; absent where nobody scrapes (sync --once, tests). */
  observer?: JobObserver | undefined;
}

/** Runs one job this process has claimed and records how it ended, one transaction each. */
export async function runClaimedJob(runner: JobRunner, job: StoredJob): Promise<void> {
  const kind = isJobKind(job.kind) ? job.kind : undefined;
  const handler = kind === undefined ? undefined : runner.handlers[kind];
  if (kind === undefined || handler === undefined) {
    const reason = `no handler for job kind ${job.kind}`;
    bury(runner, job, { attempts: job.attempts, error: reason, status: undefined }, { reason });
    return;
  }
  let report: JobReport | void;
  try {
    report = await handler(handlerJob(job, kind), runner.context);
  } catch (error) {
    recordFailure(runner, job, error);
    return;
  }
  completeJob(runner.store, job.id);
  reportDone(runner, job, report);
}

function handlerJob(job: StoredJob, kind: JobKind): Job {
  return {
    id: job.id,
    kind,
    entityKey: job.entityKey,
    payload: job.payload,
    attempts: job.attempts,
    createdAt: job.createdAt,
  };
}

function recordFailure(runner: JobRunner, job: StoredJob, error: unknown): void {
  if (!(error instanceof HomecareError)) {
    runner.logger.error(
      { ...jobFields(job), err: error },
      `queue: job ${job.id} (${job.kind} ${job.entityKey}) threw an unexpected error, a bug in its handler; it is tried again like a transient failure`,
    );
  }
  const outcome = failureOutcome(error, job.attempts, runner.retry, runner.random);
  if (outcome.kind === 'dead') {
    bury(runner, job, outcome.failure, outcome.letter, error);
    return;
  }
  const nextAttemptAt = new Date(runner.clock.now().getTime() + outcome.delayMs).toISOString();
  scheduleRetry(runner.store, job.id, outcome.failure, nextAttemptAt);
  runner.observer?.jobEnded(job.kind, 'retry');
  runner.logger.warn(
    {
      ...jobFields(job),
      err: error,
      attempts: outcome.failure.attempts,
      status: outcome.failure.status,
      nextAttemptAt,
    },
    `queue: job ${job.id} failed (try ${outcome.failure.attempts} of ${runner.retry.maxAttempts}), next try at ${nextAttemptAt}: ${outcome.failure.error}`,
  );
}

function bury(
  runner: JobRunner,
  job: StoredJob,
  failure: JobFailure,
  letter: NewDeadLetter,
  error?: unknown,
): void {
  transaction(runner.store, () => {
    if (markDead(runner.store, job.id, failure)) addDeadLetter(runner.store, job.id, letter);
  });
  runner.observer?.jobEnded(job.kind, 'dead');
  runner.logger.error(
    { ...jobFields(job), attempts: failure.attempts, status: letter.httpStatus, err: error },
    `queue: job ${job.id} is dead: ${letter.reason}; see \`homecare-sync queue show ${job.id}\`, then \`queue retry ${job.id}\` once the cause is fixed, or \`queue drop ${job.id}\``,
  );
}

function jobFields(job: StoredJob): Record<string, unknown> {
  return { jobId: job.id, kind: job.kind, entityKey: job.entityKey };
}
