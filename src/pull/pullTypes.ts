/**
 * The pull's words: what one pull of a list takes (its store, its source, its settings) and
 * what it gives (its summary). The store module implements `PullStore` over SQLite.
 */
import type { RecordVersion, ResourceName } from '../contract/index.js';
import type { ListBounds, ListEntry, PlatformFailures } from '../platform/index.js';
import type { Clock } from '../shared/clock.js';
import type { PullProgress } from './progress.js';
import type { PullBoundSettings } from './pullBounds.js';
import type { NewlyQuarantined, QuarantineNote } from './quarantined.js';
import type { PullTarget } from './targets.js';
import type { WindowSettings } from './window.js';

/** A validated record version ready for the ledger and the mirror. */
export interface PulledRecord {
  id: string;
  version: string;
  record: Record<string, unknown>;
  /** The record's text as the platform sent it: what the ledger hashes and the mirror keeps. */
  json: string;
  /** The text's hash, when the look-up of known versions made it already. */
  sha256?: string;
}

export interface QuarantinedRecord {
  id: string | undefined;
  reason: string;
  raw: unknown;
  /** The record's text as received, kept instead of `raw` serialised again. */
  text?: string;
}

export interface BatchCounts {
  fresh: number;
  repeats: number;
  /** The records this batch put in quarantine anew (one kept already is no news). */
  quarantined?: readonly QuarantineNote[];
}

/**
 * One pull of one list as the store knows it. Its `runs` row is written by its first commit
 * (a batch or its end), so that a pull costs no commit of its own: `id` is that row's, once
 * written.
 */
export interface PullRun {
  target: PullTarget;
  mode: PullMode['kind'];
  startedAt: string;
  /** It reads its list whole: a first pull, a list without a time parameter (absent: no). */
  whole?: boolean;
  id?: number;
}

/** A batch's commit that also ends its run, all in one transaction. */
export interface RunEnd {
  /** Where the checkpoint moves to; a reconciliation, or a list pulled whole, gives none. */
  advanceTo?: string;
  /** The run's outcome, with this batch's counts in it. */
  outcome(counts: BatchCounts): PullSummary;
}

/** A listed record's identity and version with its text as listed, and that text's hash. */
export interface ListedVersion extends RecordVersion {
  json: string;
  sha256: string;
}

/** What the puller needs from the store; the store module implements it over SQLite. */
export interface PullStore {
  /** How deep the JSON it stores may nest; a record nested deeper is quarantined unparsed. */
  readonly maxJsonDepth: number;
  /** Whether an operator paused the pulls of `resource` (`homecare-sync pause pull`). */
  paused(resource: ResourceName): boolean;
  watermark(target: PullTarget): string | undefined;
  /** What the last successful run like `run` (list, kind, whole or not) fetched, if any. */
  lastCount(run: PullRun): number | undefined;
  /**
   * Which of these versions, with this text, the ledger holds already (true at their places):
   * those are repeats, no-ops. One look-up for a whole batch.
   */
  known(target: PullTarget, versions: readonly ListedVersion[]): boolean[];
  /** The hash the ledger keeps of a record's text (made once a record: the look-up needs it). */
  sha256Of(json: string): string;
  /**
   * Commits one batch in one transaction: new versions into ledger and mirror (repeats are
   * no-ops), bad records into quarantine, the run's row when this is its first commit and, with
   * `end`, the checkpoint and the run's outcome. Answers the run's id with the counts.
   */
  commitBatch(
    run: PullRun,
    records: readonly PulledRecord[],
    quarantined: readonly QuarantinedRecord[],
    end?: RunEnd,
  ): BatchCounts & { runId: number };
  /** Records a run that failed, in a transaction of its own; its checkpoint stays where it was. */
  failRun(run: PullRun, summary: PullSummary): void;
  /**
   * Lowers the target's watermark by the part of `steppedBackMs` (the platform clock's backward
   * steps so far) it has not followed yet; answers the lowered watermark, if it moved.
   */
  followClockSteps(target: PullTarget, steppedBackMs: number): string | undefined;
  /**
   * Lowers the target's watermark when it lies ahead of the platform's `now`: its clock stepped
   * back while no answer of it was seen (the daemon stopped, or this is the first answer since).
   * The step is measured by the time passed since the watermark was stored; answers the lowered
   * watermark, if it moved.
   */
  followStepAhead(target: PullTarget, platformNow: Date): string | undefined;
  /**
   * After a whole list of a `vanishing` target: queues an archival event (`vanished`) for each
   * live record of the mirror the list no longer holds. Answers how many.
   */
  reportVanished(target: PullTarget, listed: ReadonlySet<string>): number;
  /** Whether the platform refused this target's guessed time parameter (it is pulled whole). */
  timeParamRefused(target: PullTarget): boolean;
  refuseTimeParam(target: PullTarget): void;
}

/** What the puller needs from the platform client. */
export interface PullSource {
  listItems(
    resource: PullTarget['resource'],
    query: Record<string, string>,
    bounds?: ListBounds,
    stop?: AbortSignal,
  ): AsyncIterable<ListEntry>;
  platformNow(): Date;
  skewMs(): number;
  /** How far the platform's clock has stepped back, in all, since the process started. */
  steppedBackMs(): number;
}

export interface PullSummary {
  resource: string;
  filter: string;
  mode: 'incremental' | 'reconcile';
  since: string;
  startedAt: string;
  finishedAt: string;
  fetched: number;
  fresh: number;
  repeats: number;
  quarantined: number;
  watermark: string | undefined;
  ok: boolean;
  /** It ended at a batch boundary because the daemon stops or reloads: no failure. */
  stopped?: true;
  error?: string;
  /** What the failed pull threw, for the log's `err` field (its kind says transient or not). */
  cause?: unknown;
  /** Something the operator should hear of once, e.g. that a list is now pulled whole. */
  notice?: string;
  /**
   * The records this run put in quarantine anew, named up to MOST_NAMED (`more` counts the
   * rest): each is said once, by its `_id` and reason.
   */
  newlyQuarantined?: NewlyQuarantined;
}

export interface PullDeps {
  store: PullStore;
  source: PullSource;
  clock: Clock;
  settings: WindowSettings & { batchSize: number } & PullBoundSettings;
  /** How a long pull says how far it got; silent when absent. */
  progress?: PullProgress;
  /** The platform outages' states, which the lists' failures of their kinds join. */
  failures?: PlatformFailures;
  /** Ends a pull under way at its next batch boundary, its request cut (the daemon stops). */
  stop?: AbortSignal;
}

export type PullMode = { kind: 'incremental' } | { kind: 'reconcile'; days: number };
