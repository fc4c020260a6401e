import type { Logger } from '../log/index.js';
import type { Clock } from '../shared/clock.js';
import { HomecareError, failureLevel } from '../shared/errors.js';
import type { JobFailure, NewDeadLetter, StoredJob, Store } from '../store/index.js';
import {
  addDeadLetter,
  completeJob,
  markDead,
  newBatch,
  scheduleRetry,
  transaction,
} from '../store/index.js';
import { reportDone, type JobObserver } from './jobReport.js';
import { failureOutcome, type RetrySettings } from './outcome.js';
import {
  isBatchHandler,
  isJobKind,
  type BatchHandler,
  type Completion,
  type Handler,
  type HandlerContext,
  type HandlerRegistry,
  type Job,
  type JobKind,
  type JobResult,
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

/** The handler of a stored job's kind; undefined (with the job dead-lettered) when none. */
function handlerOf(
  runner: JobRunner,
  job: StoredJob,
): { kind: JobKind; handler: Handler | BatchHandler } | undefined {
  const kind = isJobKind(job.kind) ? job.kind : undefined;
  const handler = kind === undefined ? undefined : runner.handlers[kind];
  if (kind !== undefined && handler !== undefined) return { kind, handler };
  const reason = `no handler for job kind ${job.kind}`;
  bury(runner, job, { attempts: job.attempts, error: reason, status: undefined }, { reason });
  return undefined;
}

/** Runs one job this process has claimed and records how it ended, one transaction each. */
export async function runClaimedJob(runner: JobRunner, job: StoredJob): Promise<void> {
  const found = handlerOf(runner, job);
  if (found === undefined) return;
  const { kind, handler } = found;
  if (isBatchHandler(handler)) {
    // The worker hands jobs of batch kinds over in batches; alone, such a job is a batch of one.
    const batch = job.batch ?? newBatch(runner.store, kind);
    await runClaimedBatch(runner, handler, [job], batch);
    return;
  }
  let complete: Completion | void;
  try {
    complete = await handler(handlerJob(job, kind), runner.context);
  } catch (error) {
    recordFailure(runner, job, error);
    return;
  }
  completeAll(runner, [{ job, complete }]);
}

/**
 * Runs jobs of one batch kind this process has claimed together, as batch `batch`. The jobs
 * that succeeded complete in one transaction; each failed one is retried or dead on its own.
 */
export async function runClaimedBatch(
  runner: JobRunner,
  handler: BatchHandler,
  jobs: readonly StoredJob[],
  batch: number,
): Promise<void> {
  let results: JobResult[];
  try {
    const handed = jobs.map((job) => handlerJob(job, job.kind as JobKind));
    results = await handler.run(handed, batch, runner.context);
  } catch (error) {
    results = jobs.map(() => ({ ok: false, error }));
  }
  const succeeded: { job: StoredJob; complete: Completion | void }[] = [];
  jobs.forEach((job, index) => {
    const result = results[index] ?? { ok: false, error: new Error('the handler gave no result') };
    if (result.ok) succeeded.push({ job, complete: result.complete });
    else recordFailure(runner, job, result.error);
  });
  completeAll(runner, succeeded);
}

function completeAll(
  runner: JobRunner,
  jobs: readonly { job: StoredJob; complete: Completion | void }[],
): void {
  transaction(runner.store, () => {
    for (const { job, complete } of jobs) {
      if (complete) complete();
      completeJob(runner.store, job.id);
    }
  });
  for (const { job } of jobs) reportDone(runner, job);
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
  runner.logger[failureLevel(error)](
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
