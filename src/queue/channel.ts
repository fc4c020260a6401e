import { setImmediate as nextTurn } from 'node:timers/promises';
import { errorMessage, failureLevel } from '../shared/errors.js';
import type { KindFilter, StoredJob } from '../store/index.js';
import { claimJobs, newBatch, readyJobs, releaseJobs, transaction } from '../store/index.js';
import type { OutcomeGroup } from './outcomeGroup.js';
import { runClaimedBatch, runClaimedJob, type JobRunner, type Outcome } from './runJob.js';
import { isBatchHandler, type HandlerRegistry } from './types.js';
import { workUnits, type WorkUnit } from './units.js';

/**
 * Most jobs one pass of a channel claims (in one transaction), unless its first unit is larger;
 * the rest wait for the next pass, which follows at once. Bounds what a stop hands back and how
 * long a claim holds the write lock.
 */
export const PASS_CLAIM_LIMIT = 256;

/**
 * How many ready jobs a pass reads, oldest first: PASS_CLAIM_LIMIT and room for the largest
 * batch beside them, so a batch fills as before. Never the whole backlog: a pass costs the same
 * behind 100 or 100,000 jobs.
 */
export function readyWindow(handlers: HandlerRegistry): number {
  const batchSizes = Object.values(handlers).map((handler) =>
    isBatchHandler(handler) ? handler.maxJobs : 0,
  );
  return PASS_CLAIM_LIMIT + Math.max(0, ...batchSizes);
}

export interface ChannelOptions {
  /** Named in log lines: `deliveries`, `platform writes`. */
  name: string;
  kinds: KindFilter;
  runner: JobRunner;
  /** Lanes: units run at once, each of other entities (`queue.concurrency`). */
  concurrency: number;
  leaseMs: number;
  /** Records outcomes in group commits shared by every channel. */
  outcomes: OutcomeGroup;
  /** Jobs this process has claimed, in any channel, until their outcome is recorded. */
  inFlight: Set<number>;
  /** While true, lanes take no more units (the worker is stopping). */
  stopping(): boolean;
}

/**
 * One of the worker's channels: passes over the jobs of its kinds only, so that its backlog never
 * holds back the other channel's jobs.
 */
export interface Channel {
  readonly kinds: KindFilter;
  /**
   * A pass: claims the units of its kinds ready now and runs them, `concurrency` at once;
   * returns how many jobs ran. A channel's passes never overlap; a second caller waits.
   */
  runOnce(): Promise<number>;
  /** A job of the channel's kinds was queued in this process: the next pass follows at once. */
  wake(): void;
  /** Passes at once, then every `intervalMs`, at once after a pass that ran something or a wake. */
  start(intervalMs: number): void;
  /** Ends the loop; resolves once its pass has ended. */
  stop(): Promise<void>;
}

/** A unit of work claimed: its jobs now `running`, with the batch number of a batch kind. */
interface ClaimedUnit {
  unit: WorkUnit;
  jobs: StoredJob[];
  batch: number | undefined;
}

export function createChannel(options: ChannelOptions): Channel {
  const { runner, kinds, inFlight } = options;
  const { store, clock, logger } = runner;
  const readyLimit = readyWindow(runner.handlers);
  let pass: Promise<number> = Promise.resolve(0);
  let loop: { done: Promise<void>; abort: AbortController } | undefined;
  // Set by a job queued since the pass under way began; ends the wait between passes early.
  let woken = false;
  let endWait: (() => void) | undefined;

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
      logger[failureLevel(error)](
        { jobIds: jobs.map((job) => job.id), err: error },
        `queue: could not record the outcome of job(s) ${ids}: ${errorMessage(error)}; they run again after a restart`,
      );
    };
    const settled = () => {
      for (const job of jobs) inFlight.delete(job.id);
    };
    let ended: Outcome[];
    try {
      ended = await options.outcomes.during(run);
    } catch (error) {
      unrecorded(error);
      settled();
      return { recorded: Promise.resolve() };
    }
    return { recorded: options.outcomes.record(ended).catch(unrecorded).finally(settled) };
  }

  /** Runs one claimed unit; returns the commit of its outcomes. */
  async function runUnit({ unit, jobs, batch }: ClaimedUnit) {
    const [job] = jobs;
    if ('batch' in unit && batch !== undefined) {
      return runClaimed(jobs, () => runClaimedBatch(runner, unit.batch.handler, jobs, batch));
    }
    if (job === undefined) return { recorded: Promise.resolve() };
    return runClaimed([job], () => runClaimedJob(runner, job));
  }

  /**
   * Claims the units of the channel's kinds ready now in one transaction (one commit), up to
   * PASS_CLAIM_LIMIT jobs; each job claimed counts as in flight until its outcome is recorded
   * or it is handed back.
   */
  function claim(): ClaimedUnit[] {
    const now = clock.now().toISOString();
    const ready = workUnits(readyJobs(store, now, kinds, readyLimit), runner.handlers);
    const taken: WorkUnit[] = [];
    let count = 0;
    for (const unit of ready) {
      if (count > 0 && count + unit.ids.length > PASS_CLAIM_LIMIT) break;
      taken.push(unit);
      count += unit.ids.length;
    }
    if (taken.length === 0) return [];
    const leaseUntil = new Date(clock.now().getTime() + options.leaseMs).toISOString();
    const claimed = transaction(store, () => {
      // Jobs that run alone are claimed in one statement; each batch in one of its own.
      const singles = taken.flatMap((unit) => ('batch' in unit ? [] : unit.ids));
      const single = new Map(
        claimJobs(store, singles, leaseUntil, undefined).map((job) => [job.id, job]),
      );
      return taken.map((unit): ClaimedUnit => {
        if (!('batch' in unit)) {
          const job = single.get(unit.ids[0]);
          return { unit, jobs: job === undefined ? [] : [job], batch: undefined };
        }
        const batch = unit.batch.number ?? newBatch(store, unit.kind);
        return { unit, jobs: claimJobs(store, unit.ids, leaseUntil, batch), batch };
      });
    });
    for (const { jobs } of claimed) for (const job of jobs) inFlight.add(job.id);
    return claimed.filter(({ jobs }) => jobs.length > 0);
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
    const units = claim();
    let next = 0;
    let ran = 0;
    const commits: Promise<void>[] = [];
    const lane = async (): Promise<void> => {
      for (let unit = units[next]; unit !== undefined && !options.stopping(); unit = units[next]) {
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
      // The pass ends when every outcome it produced is committed (or known not to be); it
      // adds none meanwhile, so waiting for other jobs' outcomes to join would be time lost.
      options.outcomes.commitNow();
      await Promise.all(commits);
    }
    return ran;
  }

  /**
   * Runs a pass on a turn of the event loop of its own. A pass whose jobs all end without I/O
   * (hand-overs that fail before any request or file, waiting for a reference) resolves in
   * microtasks alone; pass after pass would then keep everything else from running — the pull
   * that would bring the reference, timers, the log's writes — for as long as jobs are ready.
   */
  function runOnce(): Promise<number> {
    pass = pass
      .catch(() => 0)
      .then(() => nextTurn())
      .then(onePass);
    return pass;
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
        logger[failureLevel(error)](
          { err: error },
          `queue: ${options.name}: pass failed: ${errorMessage(error)}; trying again`,
        );
      }
      if (ran === 0 && !woken && !abort.signal.aborted) await wait(intervalMs, abort.signal);
    }
  }

  return {
    kinds,
    runOnce,
    wake,
    start(intervalMs) {
      const abort = new AbortController();
      loop = { abort, done: tick(intervalMs, abort) };
    },
    async stop() {
      loop?.abort.abort();
      await loop?.done;
      await pass.catch(() => 0);
      loop = undefined;
    },
  };
}
