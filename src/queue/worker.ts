import type { Logger } from '../log/index.js';
import type { Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import type { Store } from '../store/index.js';
import {
  claimJobs,
  countJobs,
  newBatch,
  readyJobs,
  releaseJobs,
  releaseRunning,
  transaction,
  type StoredJob,
} from '../store/index.js';
import type { RetrySettings } from './outcome.js';
import { onJobQueued } from './enqueue.js';
import type { JobObserver } from './jobReport.js';
import { outcomeGroup } from './outcomeGroup.js';
import { runClaimedBatch, runClaimedJob, type JobRunner, type Outcome } from './runJob.js';
import type { HandlerContext, HandlerRegistry } from './types.js';
import { workUnits, type WorkUnit } from './units.js';

export interface QueueWorkerOptions {
  store: Store;
  handlers: HandlerRegistry;
  context: HandlerContext;
  clock: Clock;
  logger: Logger;
  /** Jobs run at once, each of a different entity (`queue.concurrency`). */
  concurrency: number;
  retry: RetrySettings;
  /** In [0, 1); the back-off's jitter. */
  random?: () => number;
  /** Counts jobs by kind and outcome (the daemon's metrics). */
  observer?: JobObserver;
  /** How long a claimed job counts as taken (`lease_until`); shown to operators. */
  leaseMs?: number;
}

export interface QueueWorker {
  /** Puts jobs a dead process left `running` back to pending; call at start. Returns their ids. */
  recover(): number[];
  /**
   * Runs every job ready now (one per entity), `concurrency` at once, the jobs of a batch kind
   * in batches; returns how many ran.
   */
  runOnce(): Promise<number>;
  /** Passes until nothing is ready now; `waiting` counts the jobs still pending (back-off). */
  runUntilEmpty(): Promise<{ ran: number; waiting: number }>;
  /**
   * Passes at once, then every `intervalMs`, at once again after a pass that ran something,
   * and as soon as a job is queued in this process (a pull's deliveries, an inbox message).
   */
  start(intervalMs: number): void;
  /** Stops claiming, waits for the jobs running; none is left `running`. */
  stop(): Promise<void>;
}

const DEFAULT_LEASE_MS = 10 * 60_000;
/**
 * Most jobs one pass claims (in one transaction); the rest wait for the next pass, which
 * follows at once. Bounds what a stop hands back and how long a claim holds the write lock.
 */
export const PASS_CLAIM_LIMIT = 256;

/** A unit of work claimed: its jobs now `running`, with the batch number of a batch kind. */
interface ClaimedUnit {
  unit: WorkUnit;
  jobs: StoredJob[];
  batch: number | undefined;
}

export function createQueueWorker(options: QueueWorkerOptions): QueueWorker {
  const { store, clock, logger } = options;
  const runner: JobRunner = { ...options, random: options.random ?? Math.random };
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  const inFlight = new Set<number>();
  let stopping = false;
  // Passes never overlap: a second caller waits for the pass under way.
  let pass: Promise<number> = Promise.resolve(0);
  let loop: { done: Promise<void>; abort: AbortController; unsubscribe: () => void } | undefined;
  // Set by a job queued since the pass under way began; ends the wait between passes early.
  let woken = false;
  let endWait: (() => void) | undefined;

  const outcomes = outcomeGroup(runner);

  /**
   * Runs claimed jobs; resolves once they have run, with the commit of their outcomes (grouped
   * with those of other jobs ending close by) still under way: the lane goes on meanwhile, since
   * nothing it takes next depends on them (a later job of the same entity is not ready while
   * they are `running`). A failure to record them leaves them `running` until recover().
   */
  async function runClaimed(
    jobs: readonly StoredJob[],
    run: () => Promise<Outcome[]>,
  ): Promise<{ recorded: Promise<void> }> {
    const unrecorded = (error: unknown) => {
      const ids = jobs.map((job) => job.id).join(', ');
      logger.error(
        { jobIds: jobs.map((job) => job.id), err: error },
        `queue: could not record the outcome of job(s) ${ids}: ${errorMessage(error)}; they run again after a restart`,
      );
    };
    const settled = () => {
      for (const job of jobs) inFlight.delete(job.id);
    };
    let ended: Outcome[];
    try {
      ended = await outcomes.during(run);
    } catch (error) {
      unrecorded(error);
      settled();
      return { recorded: Promise.resolve() };
    }
    return { recorded: outcomes.record(ended).catch(unrecorded).finally(settled) };
  }

  /**
   * Claims the units' jobs in one transaction (one commit), up to PASS_CLAIM_LIMIT jobs; each
   * job claimed counts as in flight until its outcome is recorded or it is handed back.
   */
  function claimPass(units: readonly WorkUnit[]): ClaimedUnit[] {
    const leaseUntil = new Date(clock.now().getTime() + leaseMs).toISOString();
    const taken: WorkUnit[] = [];
    let count = 0;
    for (const unit of units) {
      if (count > 0 && count + unit.ids.length > PASS_CLAIM_LIMIT) break;
      taken.push(unit);
      count += unit.ids.length;
    }
    const claimed = transaction(store, () =>
      taken.map((unit) => {
        if (!('batch' in unit))
          return {
            unit,
            jobs: claimJobs(store, unit.ids, leaseUntil, undefined),
            batch: undefined,
          };
        const batch = unit.batch.number ?? newBatch(store, unit.kind);
        return { unit, jobs: claimJobs(store, unit.ids, leaseUntil, batch), batch };
      }),
    );
    for (const { jobs } of claimed) for (const job of jobs) inFlight.add(job.id);
    return claimed.filter(({ jobs }) => jobs.length > 0);
  }

  /** Runs one claimed unit; returns how many jobs ran, and the commit of their outcomes. */
  async function runUnit({ unit, jobs, batch }: ClaimedUnit) {
    const [job] = jobs;
    if ('batch' in unit && batch !== undefined) {
      return runClaimed(jobs, () => runClaimedBatch(runner, unit.batch.handler, jobs, batch));
    }
    if (job === undefined) return { recorded: Promise.resolve() };
    return runClaimed([job], () => runClaimedJob(runner, job));
  }

  /** Hands claimed jobs a stop left unrun back (pending, in their batch). */
  function handBack(units: readonly ClaimedUnit[]): void {
    const ids = units.flatMap(({ jobs }) => jobs.map((job) => job.id));
    if (ids.length === 0) return;
    try {
      releaseJobs(store, ids);
    } finally {
      for (const id of ids) inFlight.delete(id);
    }
  }

  async function onePass(): Promise<number> {
    const ready = workUnits(readyJobs(store, clock.now().toISOString()), options.handlers);
    const units = claimPass(ready);
    let next = 0;
    let ran = 0;
    const commits: Promise<void>[] = [];
    const lane = async (): Promise<void> => {
      for (let unit = units[next]; unit !== undefined && !stopping; unit = units[next]) {
        next += 1;
        const { recorded } = await runUnit(unit);
        commits.push(recorded);
        ran += unit.jobs.length;
      }
    };
    const lanes = Math.min(options.concurrency, units.length);
    try {
      await Promise.all(Array.from({ length: lanes }, lane));
    } finally {
      handBack(units.slice(next));
      // The pass ends when every outcome it produced is committed (or known not to be).
      await Promise.all(commits);
    }
    return ran;
  }

  function runOnce(): Promise<number> {
    pass = pass.catch(() => 0).then(onePass);
    return pass;
  }

  async function runUntilEmpty(): Promise<{ ran: number; waiting: number }> {
    let ran = 0;
    for (let last = await runOnce(); last > 0 && !stopping; last = await runOnce()) ran += last;
    return { ran, waiting: countJobs(store, 'pending') };
  }

  function wake(): void {
    woken = true;
    endWait?.();
  }

  /** Waits `ms`, or less when woken or stopped. */
  function wait(ms: number, signal: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        endWait = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done);
      endWait = done;
    });
  }

  async function tick(intervalMs: number, abort: AbortController): Promise<void> {
    while (!abort.signal.aborted) {
      woken = false;
      let ran = 0;
      try {
        ran = await runOnce();
      } catch (error) {
        logger.error({ err: error }, `queue: pass failed: ${errorMessage(error)}; trying again`);
      }
      if (ran === 0 && !woken && !abort.signal.aborted) await wait(intervalMs, abort.signal);
    }
  }

  return {
    recover() {
      const released = releaseRunning(store, inFlight);
      if (released.length > 0) {
        logger.warn(
          { jobIds: released },
          `queue: ${released.length} job(s) left running by a stopped process are pending again: ${released.join(', ')}`,
        );
      }
      return released;
    },
    runOnce,
    runUntilEmpty,
    start(intervalMs) {
      if (loop !== undefined) throw new Error('queue worker: start() called twice without stop()');
      stopping = false;
      const abort = new AbortController();
      const unsubscribe = onJobQueued(store, wake);
      loop = { abort, unsubscribe, done: tick(intervalMs, abort) };
    },
    async stop() {
      stopping = true;
      loop?.unsubscribe();
      loop?.abort.abort();
      await loop?.done;
      await pass.catch(() => 0);
      loop = undefined;
      stopping = false;
    },
  };
}
