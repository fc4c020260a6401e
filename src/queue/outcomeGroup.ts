import { recordOutcomes, type JobRunner, type Outcome } from './runJob.js';

export interface OutcomeGroup {
  /** Runs the work of claimed jobs; while it runs, they count as under way. */
  during<T>(work: () => Promise<T>): Promise<T>;
  /**
   * Writes the outcomes together with others in one transaction (group commit: one sync to
   * disk for many jobs). Resolves once they are committed; rejects when one of them could not
   * be written.
   */
  record(outcomes: readonly Outcome[]): Promise<void>;
  /**
   * Commits what has gathered, now: for a caller that waits on those commits and has nothing
   * left to add meanwhile (a pass whose jobs have all run), so it does not wait for others.
   */
  commitNow(): void;
}

/** Outcomes that start a commit at once: bounds how long one holds the write lock and the loop. */
export const GROUP_MAX_OUTCOMES = 128;
/**
 * Longest an outcome waits, on the runner's clock, for others to join its commit while jobs
 * are under way. Short beside anything a user sees (a 1 s schedule), long beside a request and
 * a sync to disk (on a busy disk, 20 ms left the push benchmark at half the rate of 50 ms).
 */
export const GROUP_MAX_WAIT_MS = 50;

interface Waiting {
  outcomes: readonly Outcome[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Gathers outcomes while other jobs are under way: a commit blocks the event loop for its
 * sync to disk, so it waits until no job is under way, GROUP_MAX_OUTCOMES have gathered or the
 * first of them has waited GROUP_MAX_WAIT_MS. A crash repeats at most the jobs whose outcome
 * was not yet committed, as before; a job counts as done only once its outcome is.
 */
export function outcomeGroup(runner: JobRunner): OutcomeGroup {
  let waiting: Waiting[] = [];
  let gathered = 0;
  let firstAt = 0;
  let underWay = 0;
  let looking = false;
  /** Ends the wait on the clock for the group's time to be up. */
  let timer: AbortController | undefined;

  function flush(): void {
    const group = waiting;
    waiting = [];
    gathered = 0;
    timer?.abort();
    timer = undefined;
    let failures: Map<Outcome, unknown>;
    try {
      const unwritten = recordOutcomes(
        runner,
        group.flatMap((entry) => entry.outcomes),
      );
      failures = new Map(unwritten.map(({ outcome, error }) => [outcome, error]));
    } catch (error) {
      for (const entry of group) entry.reject(error);
      return;
    }
    for (const entry of group) {
      const failed = entry.outcomes.find((outcome) => failures.has(outcome));
      if (failed === undefined) entry.resolve();
      else entry.reject(failures.get(failed));
    }
  }

  /** Commits now if the group is due; else waits for the next job to end, or the time. */
  function consider(): void {
    looking = false;
    if (waiting.length === 0) return;
    const waited = runner.clock.now().getTime() - firstAt;
    // A clock set back since the first outcome tells nothing of the wait: commit rather than
    // wait for the clock to catch up.
    const due = waited >= GROUP_MAX_WAIT_MS || waited < 0;
    if (underWay === 0 || gathered >= GROUP_MAX_OUTCOMES || due) {
      flush();
    } else if (timer === undefined) {
      const wait = new AbortController();
      timer = wait;
      void runner.clock.sleep(GROUP_MAX_WAIT_MS, wait.signal).then(() => {
        if (wait.signal.aborted) return;
        timer = undefined;
        consider();
      });
    }
  }

  const commitNow = (): void => {
    if (waiting.length > 0) flush();
  };

  /**
   * Looks once the jobs of this turn of the event loop have ended and their lanes have taken
   * up their next job, so that `underWay` counts those.
   */
  function lookSoon(): void {
    if (looking) return;
    looking = true;
    setImmediate(consider);
  }

  return {
    async during(work) {
      underWay += 1;
      try {
        return await work();
      } finally {
        underWay -= 1;
        lookSoon();
      }
    },
    commitNow,
    record(outcomes) {
      if (outcomes.length === 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        if (waiting.length === 0) firstAt = runner.clock.now().getTime();
        waiting.push({ outcomes, resolve, reject });
        gathered += outcomes.length;
        lookSoon();
      });
    },
  };
}
