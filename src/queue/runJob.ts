import type { Logger, StateLog } from '../log/index.js';
import type { PlatformFailures } from '../platform/index.js';
import type { Clock } from '../shared/clock.js';
import { HomecareError, failureLevel } from '../shared/errors.js';
import type { JobFailure, NewDeadLetter, NextTry, StoredJob, Store } from '../store/index.js';
import {
  addDeadLetter,
  completeJob,
  isReplayJobKey,
  markDead,
  newBatch,
  scheduleRetry,
  transaction,
} from '../store/index.js';
import { answerOf, reportDone, type JobObserver } from './jobReport.js';
import { failureOutcome, type RetrySettings } from './outcome.js';
import type { WritesUnderWay } from './underWay.js';
import {
  isBatchHandler,
  registeredHandler,
  type BatchHandler,
  type Completion,
  type Handler,
  type HandlerContext,
  type HandlerRegistry,
  type Job,
  type JobKind,
  type JobResult,
  type PlatformAnswer,
} from './types.js';

export interface JobRunner {
  store: Store;
  handlers: HandlerRegistry;
  context: HandlerContext;
  clock: Clock;
  logger: Logger;
  /** The writes of running jobs whose outcome is not committed yet. */
  underWay: WritesUnderWay;
  retry: RetrySettings;
  random: () => number;
  /** Counts jobs by kind and outcome; absent where nobody scrapes (sync --once, tests). */
  observer?: JobObserver | undefined;
  /**
   * The jobs that wait for one cause (the error's code: the ERP unavailable, a reference not yet
   * pulled) as one state, by kind and entity (a newer version's job takes its place): a thousand
   * hand-overs waiting for the ERP are three lines, not a thousand per back-off round.
   */
  waits: StateLog;
  /** The platform outages' states, which a failure of their kind joins instead (`waits`). */
  failures?: PlatformFailures | undefined;
}

/**
 * How a claimed job ended, not yet written: done (with what its success makes true), to be
 * tried again at `next.at`, or dead. `recordOutcomes` writes several in one transaction.
 */
export type Outcome =
  | { job: StoredJob; done: Completion | void; answer?: PlatformAnswer }
  | { job: StoredJob; retry: JobFailure; next: NextTry; error: unknown }
  | { job: StoredJob; dead: JobFailure; letter: NewDeadLetter; error?: unknown };

/** The handler of a stored job's kind, or the job's dead outcome when there is none. */
export function handlerOf(
  job: StoredJob,
  handlers: HandlerRegistry,
): { kind: JobKind; handler: Handler | BatchHandler } | Outcome {
  const kind = job.kind;
  const handler = registeredHandler(handlers, kind);
  if (handler !== undefined) return { kind, handler };
  const reason = `no handler for job kind ${job.kind}`;
  return {
    job,
    dead: { attempts: job.attempts, error: reason, status: undefined },
    letter: { reason },
  };
}

/** Runs one job this process has claimed; returns how it ended, to be recorded. */
export async function runClaimedJob(runner: JobRunner, job: StoredJob): Promise<Outcome[]> {
  const found = handlerOf(job, runner.handlers);
  if ('job' in found) return [found];
  const { kind, handler } = found;
  if (isBatchHandler(handler)) {
    // The worker hands jobs of batch kinds over in batches; alone, such a job is a batch of one.
    const batch = job.batch ?? newBatch(runner.store, kind);
    return runClaimedBatch(runner, handler, [job], batch);
  }
  const noted: { answer?: PlatformAnswer } = {};
  const context: HandlerContext = {
    ...runner.context,
    answered: (answer) => {
      noted.answer = answer;
    },
    writing: (write) => runner.underWay.note(job.id, write),
  };
  try {
    const done = await handler(handlerJob(job, kind), context);
    return [{ job, done, ...noted }];
  } catch (error) {
    return [failed(runner, job, error)];
  }
}

/**
 * Runs jobs of one batch kind this process has claimed together, as batch `batch`; returns how
 * each ended, by its own result.
 */
export async function runClaimedBatch(
  runner: JobRunner,
  handler: BatchHandler,
  jobs: readonly StoredJob[],
  batch: number,
): Promise<Outcome[]> {
  let results: JobResult[];
  try {
    const handed = jobs.map((job) => handlerJob(job, job.kind));
    results = await handler.run(handed, batch, runner.context);
  } catch (error) {
    results = jobs.map(() => ({ ok: false, error }));
  }
  return jobs.map((job, index) => {
    const result = results[index] ?? { ok: false, error: new Error('the handler gave no result') };
    return result.ok ? { job, done: result.complete } : failed(runner, job, result.error);
  });
}

/**
 * Writes outcomes in one transaction (one commit, one sync to disk), each in a savepoint of
 * its own: an outcome that cannot be written (its Completion throws) leaves its job `running`
 * (it runs again after recover()) and the others commit. Reports and logs once committed.
 * Returns the outcomes that could not be written, with why.
 */
export function recordOutcomes(
  runner: JobRunner,
  outcomes: readonly Outcome[],
): { outcome: Outcome; error: unknown }[] {
  const unwritten: { outcome: Outcome; error: unknown }[] = [];
  const written: Outcome[] = [];
  transaction(runner.store, () => {
    for (const outcome of outcomes) {
      try {
        transaction(runner.store, () => write(runner, outcome));
        written.push(outcome);
      } catch (error) {
        unwritten.push({ outcome, error });
      }
    }
  });
  for (const outcome of written) {
    runner.underWay.settle(outcome.job.id);
    report(runner, outcome);
  }
  return unwritten;
}

function write(runner: JobRunner, outcome: Outcome): void {
  const { store } = runner;
  const { job } = outcome;
  if ('done' in outcome) {
    if (outcome.done) outcome.done();
    // What the platform answered stays with the job: trace shows it ("…: platform answered 200").
    const said = answerOf(outcome.answer).said.replace(/^: /, '');
    completeJob(store, job.id, said === '' ? undefined : said);
  } else if ('retry' in outcome) {
    scheduleRetry(store, job.id, outcome.retry, outcome.next);
  } else if (markDead(store, job.id, outcome.dead)) {
    addDeadLetter(store, job.id, outcome.letter);
  }
}

function report(runner: JobRunner, outcome: Outcome): void {
  const { job } = outcome;
  if ('done' in outcome) {
    waitsNoMore(runner, job);
    reportDone(runner, job, outcome.answer);
  } else if ('retry' in outcome) {
    runner.observer?.jobEnded(job.kind, 'retry');
    reportRetry(runner, outcome);
  } else {
    const { dead: failure, letter } = outcome;
    waitsNoMore(runner, job);
    runner.observer?.jobEnded(job.kind, 'dead');
    runner.logger.error(
      {
        ...jobFields(job),
        attempts: failure.attempts,
        status: letter.httpStatus,
        err: outcome.error,
      },
      `queue: job ${job.id} is dead: ${letter.reason}; see \`homecare-sync queue show ${job.id}\`, then \`queue retry ${job.id}\` once the cause is fixed, or \`queue drop ${job.id}\``,
    );
  }
}

/**
 * A try that failed and is tried again. An expected wait (a typed error: the ERP unavailable,
 * a reference not yet pulled) is a state of the wait log, and each try only a debug line; a
 * watched state's failure is logged by its watch; anything else is a bug, with its stack.
 */
function reportRetry(runner: JobRunner, outcome: Extract<Outcome, { retry: JobFailure }>): void {
  const { job, retry: failure, next, error } = outcome;
  const asked = next.theirs ? ', as its Retry-After asked' : '';
  const fields = {
    ...jobFields(job),
    attempts: failure.attempts,
    status: failure.status,
    nextAttemptAt: next.at,
  };
  const message = `queue: job ${job.id} failed (try ${failure.attempts} of ${runner.retry.maxAttempts}), next try at ${next.at}${asked}: ${failure.error}`;
  const level = failureLevel(error);
  if (error instanceof HomecareError && level !== 'debug') {
    runner.logger.debug({ ...fields, code: error.code }, message);
    waits(runner, job, error, next.at, level);
    return;
  }
  runner.logger[level]({ ...fields, err: error }, message);
}

/** A job by its kind and entity: a newer version's job, which supersedes it, takes its place. */
const memberOf = (job: StoredJob): string => `${job.kind} ${job.entityKey}`;

/**
 * A job failed for an expected reason and waits for its next try at `nextAt`: the first job of
 * its cause says so, the rest only count. A platform outage's kind joins that outage's state.
 */
function waits(
  runner: JobRunner,
  job: StoredJob,
  error: HomecareError,
  nextAt: string,
  level: 'warn' | 'error',
): void {
  const [member, fields, dueAt] = [memberOf(job), jobFields(job), Date.parse(nextAt)];
  if (runner.failures?.failed(member, error, fields, dueAt) === true) return;
  const problem = `${job.kind} ${job.entityKey} waits, next try at ${nextAt}: ${error.message}`;
  runner.waits.holds({ cause: error.code, member, level, problem, fields, dueAt });
}

/** A job is done or dead: it waits no more; the last one of a cause ends that state. */
function waitsNoMore(runner: JobRunner, job: StoredJob): void {
  runner.failures?.passed(memberOf(job));
  runner.waits.ends(memberOf(job));
}

/** A stored job as its handler is given it. */
export function handlerJob(job: StoredJob, kind: JobKind = job.kind): Job {
  return {
    id: job.id,
    kind,
    entityKey: job.entityKey,
    payload: job.payload,
    attempts: job.attempts,
    ...(job.lastError === undefined ? {} : { lastError: job.lastError }),
    ...(isReplayJobKey(job.idempotencyKey) ? { replay: true as const } : {}),
    createdAt: job.createdAt,
  };
}

/** A failed try: retried after the back-off, or dead (attempts used up, a permanent error). */
function failed(runner: JobRunner, job: StoredJob, error: unknown): Outcome {
  if (!(error instanceof HomecareError)) {
    runner.logger.error(
      { ...jobFields(job), err: error },
      `queue: job ${job.id} (${job.kind} ${job.entityKey}) threw an unexpected error, a bug in its handler; it is tried again like a transient failure`,
    );
  }
  const outcome = failureOutcome(error, job.attempts, runner.retry, runner.random);
  if (outcome.kind === 'dead') return { job, dead: outcome.failure, letter: outcome.letter, error };
  const at = new Date(runner.clock.now().getTime() + outcome.delayMs).toISOString();
  return { job, retry: outcome.failure, next: { at, theirs: outcome.theirs }, error };
}

function jobFields(job: StoredJob): Record<string, unknown> {
  return { jobId: job.id, kind: job.kind, entityKey: job.entityKey };
}
