import { errorMessage, failureLevel } from '../shared/errors.js';
import type { StoredJob } from '../store/index.js';
import { handBack, type ClaimedUnit } from './claim.js';
import type { OutcomeGroup } from './outcomeGroup.js';
import { runClaimedBatch, runClaimedJob, type JobRunner, type Outcome } from './runJob.js';

/** What a pass runs its claimed units with. */
export interface PassScope {
  runner: JobRunner;
  /** Lanes: units run at once, each of other entities (`queue.concurrency`). */
  concurrency: number;
  /** Records outcomes in group commits shared by every channel. */
  outcomes: OutcomeGroup;
  /** Jobs this process has claimed, in any channel, until their outcome is recorded. */
  inFlight: Set<number>;
  /** While true, lanes take no more units (the worker is stopping). */
  stopping(): boolean;
}

/**
 * Runs claimed jobs; resolves once they have run, with the commit of their outcomes (grouped
 * with those of other jobs ending close by) still under way: the lane goes on meanwhile, since
 * nothing it takes next depends on them (a later job of the same entity is not ready while
 * they are `running`). A failure to record them leaves them `running` until recover().
 */
async function runClaimed(
  scope: PassScope,
  jobs: readonly StoredJob[],
  run: () => Promise<Outcome[]>,
): Promise<{ recorded: Promise<void> }> {
  const unrecorded = (error: unknown) => {
    const ids = jobs.map((job) => job.id).join(', ');
    scope.runner.logger[failureLevel(error)](
      { jobIds: jobs.map((job) => job.id), err: error },
      `queue: could not record the outcome of job(s) ${ids}: ${errorMessage(error)}; they run again after a restart`,
    );
  };
  const settled = () => {
    for (const job of jobs) scope.inFlight.delete(job.id);
  };
  let ended: Outcome[];
  try {
    ended = await scope.outcomes.during(run);
  } catch (error) {
    unrecorded(error);
    settled();
    return { recorded: Promise.resolve() };
  }
  return { recorded: scope.outcomes.record(ended).catch(unrecorded).finally(settled) };
}

/** Runs one claimed unit; returns the commit of its outcomes. */
async function runUnit(scope: PassScope, { unit, jobs, batch }: ClaimedUnit) {
  const { runner } = scope;
  const [job] = jobs;
  if ('batch' in unit && batch !== undefined) {
    return runClaimed(scope, jobs, () => runClaimedBatch(runner, unit.batch.handler, jobs, batch));
  }
  if (job === undefined) return { recorded: Promise.resolve() };
  return runClaimed(scope, [job], () => runClaimedJob(runner, job));
}

/**
 * Runs the claimed units in order, `concurrency` lanes at once; returns how many jobs ran. A
 * stop leaves the units not yet taken to be handed back.
 */
export async function runPass(scope: PassScope, units: readonly ClaimedUnit[]): Promise<number> {
  let next = 0;
  let ran = 0;
  const commits: Promise<void>[] = [];
  const lane = async (): Promise<void> => {
    for (let unit = units[next]; unit !== undefined && !scope.stopping(); unit = units[next]) {
      next += 1;
      const { recorded } = await runUnit(scope, unit);
      commits.push(recorded);
      ran += unit.jobs.length;
    }
  };
  const lanes = Math.min(scope.concurrency, units.length);
  try {
    await Promise.all(Array.from({ length: lanes }, lane));
  } finally {
    handBack(scope, units.slice(next));
    // The pass ends when every outcome it produced is committed (or known not to be); it
    // adds none meanwhile, so waiting for other jobs' outcomes to join would be time lost.
    scope.outcomes.commitNow();
    await Promise.all(commits);
  }
  return ran;
}
