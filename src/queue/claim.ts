import type { KindFilter, StoredJob } from '../store/index.js';
import {
  claimJobs,
  heldWrites,
  newBatch,
  readyJobs,
  releaseJobs,
  transaction,
} from '../store/index.js';
import type { JobRunner } from './runJob.js';
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

/** A unit of work claimed: its jobs now `running`, with the batch number of a batch kind. */
export interface ClaimedUnit {
  unit: WorkUnit;
  jobs: StoredJob[];
  batch: number | undefined;
}

/** What a channel claims with: its kinds, its lease, and the jobs the process has in flight. */
export interface ClaimScope {
  runner: JobRunner;
  kinds: KindFilter;
  leaseMs: number;
  /** Jobs this process has claimed, in any channel, until their outcome is recorded. */
  inFlight: Set<number>;
  /** How many ready jobs a pass reads (readyWindow). */
  readyLimit: number;
  /** Whether an operator's push pause holds the scope's jobs back (`homecare-sync pause push`). */
  pausable: boolean;
}

/** The first units of `ready`, up to PASS_CLAIM_LIMIT jobs (the first unit whatever its size). */
function withinLimit(ready: readonly WorkUnit[]): WorkUnit[] {
  const taken: WorkUnit[] = [];
  let count = 0;
  for (const unit of ready) {
    if (count > 0 && count + unit.ids.length > PASS_CLAIM_LIMIT) break;
    taken.push(unit);
    count += unit.ids.length;
  }
  return taken;
}

/**
 * Claims the units of the scope's kinds ready now in one transaction (one commit), up to
 * PASS_CLAIM_LIMIT jobs; each job claimed counts as in flight until its outcome is recorded
 * or it is handed back. Jobs an operator paused stay pending, unclaimed.
 */
export function claimUnits(scope: ClaimScope): ClaimedUnit[] {
  const { runner, inFlight } = scope;
  const { store, clock } = runner;
  const now = clock.now().toISOString();
  // Read at each pass, so a pause or resume from another process counts at the next one.
  const held = scope.pausable ? heldWrites(store) : { every: false as const, kinds: [] };
  if (held.every) return [];
  const jobs = readyJobs(store, now, scope.kinds, scope.readyLimit, held.kinds);
  const ready = workUnits(jobs, runner.handlers);
  const taken = withinLimit(ready);
  if (taken.length === 0) return [];
  const leaseUntil = new Date(clock.now().getTime() + scope.leaseMs).toISOString();
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
  scope: Pick<ClaimScope, 'runner' | 'inFlight'>,
  units: readonly ClaimedUnit[],
): void {
  const ids = units.flatMap(({ jobs }) => jobs.map((job) => job.id));
  if (ids.length === 0) return;
  try {
    releaseJobs(scope.runner.store, ids);
  } finally {
    for (const id of ids) scope.inFlight.delete(id);
  }
}
