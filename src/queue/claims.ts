import type { KindFilter, StoredJob } from '../store/index.js';
import { claimJobs, newBatch, readyJobs, releaseJobs, transaction } from '../store/index.js';
import type { JobRunner } from './runJob.js';
import { workUnits, type WorkUnit } from './units.js';

/**
 * Most jobs one claim takes (in one transaction), unless its first unit is larger; the rest
 * wait for the next claim. Bounds what a stop hands back and how long a claim holds the write
 * lock.
 */
export const PASS_CLAIM_LIMIT = 256;

/** A unit of work claimed: its jobs now `running`, with the batch number of a batch kind. */
export interface ClaimedUnit {
  unit: WorkUnit;
  jobs: StoredJob[];
  batch: number | undefined;
}

export interface ClaimOptions {
  runner: JobRunner;
  kinds: KindFilter;
  leaseMs: number;
  /** Jobs this process has claimed, in any channel, until their outcome is recorded. */
  inFlight: Set<number>;
}

/**
 * Claims the units of `kinds` ready now in one transaction (one commit), up to
 * PASS_CLAIM_LIMIT jobs; each job claimed counts as in flight until its outcome is recorded
 * or it is handed back.
 */
export function claimReady({ runner, kinds, leaseMs, inFlight }: ClaimOptions): ClaimedUnit[] {
  const { store, clock } = runner;
  const ready = workUnits(readyJobs(store, clock.now().toISOString(), kinds), runner.handlers);
  const taken: WorkUnit[] = [];
  let count = 0;
  for (const unit of ready) {
    if (count > 0 && count + unit.ids.length > PASS_CLAIM_LIMIT) break;
    taken.push(unit);
    count += unit.ids.length;
  }
  if (taken.length === 0) return [];
  const leaseUntil = new Date(clock.now().getTime() + leaseMs).toISOString();
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
export function handBack(
  { runner, inFlight }: Pick<ClaimOptions, 'runner' | 'inFlight'>,
  units: readonly ClaimedUnit[],
): void {
  const ids = units.flatMap(({ jobs }) => jobs.map((job) => job.id));
  if (ids.length === 0) return;
  try {
    releaseJobs(runner.store, ids);
  } finally {
    for (const id of ids) inFlight.delete(id);
  }
}
