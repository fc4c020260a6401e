import { errorMessage } from '../shared/errors.js';
import type { KindFilter, StoredJob } from '../store/index.js';
import { claimReady, handBack, type ClaimedUnit } from './claims.js';
import type { OutcomeGroup } from './outcomeGroup.js';
import { runClaimedBatch, runClaimedJob, type JobRunner, type Outcome } from './runJob.js';

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
  /** Called when a pass found nothing to run, before the loop waits for the next. */
  idle(): void;
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
  /** A pass that also takes what becomes ready while it runs, until a claim finds nothing. */
  drain(): Promise<number>;
  /** A job of the channel's kinds was queued in this process: the next pass follows at once. */
  wake(): void;
  /**
   * Passes at once, then every `intervalMs`, at once after a pass that ran something or a wake;
   * a pass takes what becomes ready while it runs (see onePass).
   */
  start(intervalMs: number): void;
  /** Ends the loop; resolves once its pass has ended. */
  stop(): Promise<void>;
}

export function createChannel(options: ChannelOptions): Channel {
  const { runner, kinds, inFlight } = options;
  const { logger } = runner;
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

  /** Set while a pass of the started loop runs: claims what is ready now, if a lane is free. */
  let takeReady: (() => void) | undefined;
  let looking = false;

  /**
   * Has the pass under way look for ready jobs once the current transaction and turn of the
   * event loop have ended: a job was queued, or outcomes were committed (a later job of their
   * entity may be ready now).
   */
  function lookAgain(): void {
    if (takeReady === undefined || looking) return;
    looking = true;
    setImmediate(() => {
      looking = false;
      takeReady?.();
    });
  }

  /**
   * A pass: claims the units ready now and runs them on up to `concurrency` lanes. With
   * `refill` (the started loop), a lane that finds none left claims what has become ready
   * since (the outcomes of earlier jobs committed, a job queued) and free lanes start on it,
   * so the lanes never wait for the slowest of a pass before the next claim; the pass ends
   * when a claim finds nothing. Without it (runOnce), only the jobs ready at its start run.
   */
  async function onePass(refill: boolean): Promise<number> {
    const units = claimReady(options);
    let next = 0;
    let ran = 0;
    let running = 0;
    const commits: Promise<void>[] = [];
    const lanes: Promise<void>[] = [];
    const take = (): ClaimedUnit | undefined => {
      if (options.stopping()) return undefined;
      if (next === units.length && refill) {
        units.push(...claimReady(options));
        // Free lanes start on the rest once this one has started its unit (in claim order).
        queueMicrotask(startLanes);
      }
      const unit = units[next];
      if (unit !== undefined) next += 1;
      return unit;
    };
    const lane = async (): Promise<void> => {
      for (let unit = take(); unit !== undefined; unit = take()) {
        const { recorded } = await runUnit(unit);
        commits.push(recorded);
        if (refill) void recorded.then(lookAgain);
        ran += unit.jobs.length;
      }
    };
    // A lane takes its first unit before its first await, so each start uses one up.
    function startLanes(): void {
      while (running < options.concurrency && next < units.length) {
        running += 1;
        lanes.push(lane().finally(() => (running -= 1)));
      }
    }
    if (refill) {
      takeReady = () => {
        if (options.stopping() || running >= options.concurrency || next < units.length) return;
        units.push(...claimReady(options));
        startLanes();
      };
    }
    try {
      startLanes();
      for (let awaited = 0; awaited < lanes.length;) {
        const started = lanes.slice(awaited);
        awaited = lanes.length;
        await Promise.all(started);
      }
    } finally {
      takeReady = undefined;
      handBack(options, units.slice(next));
      // The pass ends when every outcome it produced is committed (or known not to be); it
      // adds none meanwhile, so waiting for other jobs' outcomes to join would be time lost.
      options.outcomes.commitNow();
      await Promise.all(commits);
    }
    return ran;
  }

  function runPass(refill: boolean): Promise<number> {
    pass = pass.catch(() => 0).then(() => onePass(refill));
    return pass;
  }

  function wake(): void {
    woken = true;
    endWait?.();
    lookAgain();
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
        ran = await runPass(true);
      } catch (error) {
        logger.error(
          { err: error },
          `queue: ${options.name}: pass failed: ${errorMessage(error)}; trying again`,
        );
      }
      if (ran === 0 && !woken && !abort.signal.aborted) {
        options.idle();
        await wait(intervalMs, abort.signal);
      }
    }
  }

  return {
    kinds,
    runOnce: () => runPass(false),
    drain: () => runPass(true),
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
