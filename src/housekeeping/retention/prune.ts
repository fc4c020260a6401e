import { setImmediate as nextTurn } from 'node:timers/promises';
import { batchSizer } from '../../shared/batchSizer.js';
import { moveRetentionCursor, retentionCursor } from '../../store/retentionCursors.js';
import { autoVacuumOf, checkpointWal, freePages, pragmaNumber } from '../../store/space.js';
import { query, statement } from '../../store/statements.js';
import type { Store } from '../../store/store.js';
import { transaction } from '../../store/transaction.js';
import {
  SWEEPS,
  type RetentionDays,
  type RetentionRule,
  type Sweep,
  type SweptRow,
} from './rules.js';
import { DAY_MS } from '../../shared/clock.js';

/**
 * Retention's one stepper: finished work older than its days goes, each line of the policy
 * (rules.ts) in short batches beside the daemon's work.
 */

export type { RetentionDays, RetentionRule };

export interface PruneOptions {
  /** Rows one write transaction removes at most. */
  batchSize: number;
  /**
   * How long one write transaction should hold the database and the event loop, in ms: the
   * batch shrinks below `batchSize` when a batch takes longer, so work arriving meanwhile (a
   * pull's commit, a job's outcome) waits at most about this long. Measured, not clocked:
   * it sizes batches, it decides nothing about what is removed.
   */
  batchMs?: number;
  /** Whether to stop between two batches (the daemon is stopping). */
  stopping?: () => boolean;
}

export interface PruneReport {
  /** Rows removed (jobs, runs, versions, quarantine, own writes) or reduced (bodies), per rule. */
  removed: Record<RetentionRule, number>;
  /** Pages given back to the disk afterwards (incremental vacuum). */
  freedPages: number;
  /** True when it stopped before it was through (see `stopping`); the next pass goes on. */
  stopped: boolean;
}

/** One batch: what it removed, and whether there may be more. */
interface Step {
  removed: number;
  more: boolean;
}

/** Pages one incremental-vacuum transaction gives back: 4 MiB of 4 KiB pages, a few ms. */
const VACUUM_PAGES = 1024;

/**
 * The batches of one sweep in one pass, each removing up to `limit` rows in the caller's
 * transaction. Of the rows selected, those before the first made since the cutoff are old (all
 * of them but on a walk), and of those the removable ones go.
 */
function stepper(store: Store, cutoff: string, sweep: Sweep): (limit: number) => Step {
  const { walk } = sweep;
  let after = typeof walk === 'object' ? retentionCursor(store, walk.cursor) : 0;
  return (limit) => {
    const rows = query<{ after: number; cutoff: string; limit: number }, SweptRow>(
      store.db,
      sweep.select,
      { id: 'number' },
    ).all({ after, cutoff, limit });
    const young = rows.findIndex((row) => row.madeAt !== undefined && row.madeAt >= cutoff);
    const old = young === -1 ? rows : rows.slice(0, young);
    const gone = old.filter((row) => row.removable === undefined || row.removable === 1);
    const removed = remove(store, sweep, gone);
    const last = old.at(-1)?.id;
    if (walk !== undefined && last !== undefined) {
      after = last;
      if (typeof walk === 'object') moveRetentionCursor(store, walk.cursor, last);
    }
    return { removed, more: old.length === rows.length && rows.length === limit };
  };
}

/** What a sweep does to the rows that go: each in turn, or its statements over their ids. */
function remove(store: Store, sweep: Sweep, rows: readonly SweptRow[]): number {
  if (rows.length === 0) return 0;
  if (sweep.each === undefined) {
    const ids = JSON.stringify(rows.map((row) => row.id));
    for (const sql of sweep.then ?? []) statement<{ ids: string }>(store.db, sql).run({ ids });
    return rows.length;
  }
  let removed = 0;
  for (const row of rows) removed += sweep.each(store, row);
  return removed;
}

/** A pruning transaction's aim: short enough that a pull's commit waiting behind it is not slowed. */
const DEFAULT_BATCH_MS = 4;
/** The time before which `days` days' items are past retention, as stored. */
export function cutoffOf(store: Store, days: number): string {
  return new Date(store.clock.now().getTime() - days * DAY_MS).toISOString();
}

/**
 * One pass of retention over the database: each sweep in batches of `batchSize` rows, each batch
 * its own short write transaction (a crash loses at most the batch under way, which the next
 * pass does again), the event loop free between two batches; then the pages set free go back to
 * the disk (incremental vacuum, in steps too) and the WAL is checkpointed.
 */
export async function pruneStore(
  store: Store,
  days: RetentionDays,
  options: PruneOptions,
): Promise<PruneReport> {
  const stopping = options.stopping ?? (() => false);
  const removed = Object.fromEntries(
    SWEEPS.map((sweep) => [sweep.rule, 0]),
  ) as PruneReport['removed'];
  const size = batchSizer(options.batchSize, options.batchMs ?? DEFAULT_BATCH_MS);
  for (const sweep of SWEEPS) {
    const step = stepper(store, cutoffOf(store, days[sweep.rule]), sweep);
    for (;;) {
      if (stopping()) return { removed, freedPages: 0, stopped: true };
      const done = size.measure(() => transaction(store, () => step(size.limit())));
      removed[sweep.rule] += done.removed;
      if (!done.more) break;
      await nextTurn();
    }
  }
  const freedPages = await giveBackPages(store, stopping);
  checkpointWal(store);
  return { removed, freedPages, stopped: stopping() };
}

/**
 * The incremental vacuum after pruning, VACUUM_PAGES per short transaction. A file made before
 * incremental auto-vacuum keeps its free pages for its next rows instead (it stops growing but
 * does not shrink) until one VACUUM switches it (space.ts `compact`).
 */
async function giveBackPages(store: Store, stopping: () => boolean): Promise<number> {
  if (autoVacuumOf(store) !== 'incremental') return 0;
  let freed = 0;
  let free = pragmaNumber(store, 'freelist_count');
  while (free > 0 && !stopping()) {
    const left = freePages(store, VACUUM_PAGES);
    if (left >= free) break;
    freed += free - left;
    free = left;
    await nextTurn();
  }
  return freed;
}
