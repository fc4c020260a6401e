import type { KindFilter, StoredJob } from '../store/index.js';
import {
  claimJobs,
  heldWrites,
  newBatch,
  pendingKinds,
  readyJobs,
  releaseJobs,
  transaction,
} from '../store/index.js';
import { takeTurns, type Turns } from './fairShare.js';
import type { JobRunner } from './runJob.js';
import { isBatchHandler, registeredHandler, type HandlerRegistry } from './types.js';
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
  /**
   * The turns of the kinds by weight (`queue.weights`); without, a pass takes the ready jobs in
   * queue order.
   */
  turns?: Turns;
  /** The channel's lanes: a pass that takes turns takes a unit for each, no more. */
  lanes: number;
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
 * How many of one kind's ready jobs a pass shared by turns reads: a unit for each lane, and
 * room for a full batch of a batch kind.
 */
function kindWindow(handlers: HandlerRegistry, kind: string, lanes: number): number {
  const handler = registeredHandler(handlers, kind);
  return lanes + (handler !== undefined && isBatchHandler(handler) ? handler.maxJobs : 0);
}

/**
 * The units ready now, in the order the lanes take them. Jobs of one kind ready: in queue
 * order, up to the pass's claim. Of several, with turns (`queue.weights`): each kind's oldest
 * ready jobs, read through the index of its own jobs, one unit a lane, the kinds taking turns
 * by weight: a backlog of one kind holds another's jobs for one unit's hand-over at most (the
 * passes of a channel do not overlap, so a long pass would hold them for all of it).
 */
function readyUnits(scope: ClaimScope, now: string, held: readonly string[]): WorkUnit[] {
  const { store, handlers } = scope.runner;
  const { turns, lanes } = scope;
  const kinds = turns === undefined ? [] : pendingKinds(store, scope.kinds, held);
  if (turns !== undefined && kinds.length > 1) {
    const byKind = new Map(
      kinds.map((kind) => {
        const limit = kindWindow(handlers, kind, lanes);
        return [kind, workUnits(readyJobs(store, now, scope.kinds, limit, held, kind), handlers)];
      }),
    );
    const ready = [...byKind.values()].filter((units) => units.length > 0);
    if (ready.length > 1) return takeTurns(byKind, turns, lanes);
  }
  return workUnits(readyJobs(store, now, scope.kinds, scope.readyLimit, held), handlers);
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
  const taken = withinLimit(readyUnits(scope, now, held.kinds));
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
