import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  checkRecord,
  entitySchema,
  recordVersionOf,
  type RecordVersion,
  type ResourceName,
} from '../contract/index.js';
import type {
  ListBounds,
  ListEntry,
  ListItem,
  PlatformFailures,
  SetAsideItem,
} from '../platform/index.js';
import type { Clock } from '../shared/clock.js';
import { errorMessage, PermanentError } from '../shared/errors.js';
import type { PullProgress } from './progress.js';
import { boundsFor, type PullBoundSettings } from './pullBounds.js';
import { withNotes, type NewlyQuarantined, type QuarantineNote } from './quarantined.js';
import type { PullTarget } from './targets.js';
import {
  FIRST_PULL_SINCE,
  nextWatermark,
  pullSince,
  queryFor,
  reconcileSince,
  type WindowSettings,
} from './window.js';

/** What a run the daemon's stop or reload ended says, in `status` and the log. */
const STOPPED =
  'stopped at a batch boundary for the daemon to stop or reload; the next pull goes on from the checkpoint';

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

/**
 * How a platform says it does not take a query parameter: 400 (bad request), 404 (no such list
 * with it) or 422 (unprocessable). 401, 403, 408 and 429 keep their own meaning.
 */
const PARAMETER_REFUSALS: ReadonlySet<number> = new Set([400, 404, 422]);

/**
 * The platform refused a time parameter the spec does not show for this list (patient,
 * erpOrder, productGroup, the contract lists): it does not take it. Where the spec shows the
 * parameter, a refusal is a failure, never a reason to pull without it.
 */
function refusesGuessedTimeParam(target: PullTarget, error: unknown): error is PermanentError {
  return (
    target.timeParamGuessed === true &&
    error instanceof PermanentError &&
    error.status !== undefined &&
    PARAMETER_REFUSALS.has(error.status)
  );
}

function withoutTimeParam(target: PullTarget, query: Record<string, string>) {
  return Object.fromEntries(Object.entries(query).filter(([name]) => name !== target.timeParam));
}

function fallbackNotice(target: PullTarget, status: number | undefined): string {
  return `the platform refuses ${String(target.timeParam)} on the ${target.resource} list (HTTP ${String(status)}; the spec shows no parameters for it), so this list is pulled whole from now on; the ledger drops the records already seen`;
}

function vanishedNotice(target: PullTarget, count: number): string {
  return `${count} ${target.resource} record(s) the ERP has are no longer in the platform's whole list, which leaves archived ones out: each is handed to the ERP as archived (vanished)`;
}

/** The `_id` a list entry names, '' when it names none (then it cannot have vanished). */
function listedId(entry: ListItem | SetAsideItem): string {
  if ('setAside' in entry) return entry.id ?? '';
  const id = entry.record['_id'];
  return typeof id === 'string' ? id : '';
}

function steppedBackNotice(lowered: string): string {
  return `the platform's clock stepped back (its Date header), so this list is pulled again from ${lowered}, as far back as the clock went; the ledger drops the records already seen`;
}

interface SortedBatch {
  records: PulledRecord[];
  bad: QuarantinedRecord[];
  repeats: number;
}

/**
 * A batch of listed records sorted into new versions, which are checked against the contract,
 * and repeats: a version the ledger holds with the same text goes no further (neither checked
 * nor stored), so a list seen again costs a hash per record and one look-up per batch.
 * A record that fails its check is quarantined (the ledger never holds it, so it is checked
 * every time it is listed).
 */
function sortOut(
  store: PullStore,
  target: PullTarget,
  listed: readonly ListItem[],
  setAside: readonly SetAsideItem[],
): SortedBatch {
  const schema = entitySchema(target.resource);
  const versions = listed.map((item) => {
    const version = recordVersionOf(target.resource, item.record);
    return version === undefined
      ? undefined
      : { ...version, json: item.text, sha256: store.sha256Of(item.text) };
  });
  const known = store.known(
    target,
    versions.filter((version) => version !== undefined),
  );
  const batch: SortedBatch = { records: [], bad: setAside.map(quarantinedAside), repeats: 0 };
  let at = 0;
  listed.forEach(({ record: raw, text }, index) => {
    if (versions[index] !== undefined && known[at++] === true) {
      batch.repeats += 1;
      return;
    }
    // The record as listed, not the check's copy of it: the same fields (the schemas let every
    // field pass as it is), the one its stored text says, and the copy is let go at once.
    const check = checkRecord(target.resource, schema, raw);
    if (check.ok) {
      const sha256 = versions[index]?.sha256;
      const pulled = { id: check.id, version: check.version, record: raw, json: text };
      batch.records.push(sha256 === undefined ? pulled : { ...pulled, sha256 });
    } else batch.bad.push({ id: check.id, reason: check.reason, raw });
  });
  return batch;
}

/** A record the list set aside unread: kept as it came when it was held, else a note of it. */
function quarantinedAside(item: SetAsideItem): QuarantinedRecord {
  const raw = { _id: item.id ?? null, notKept: item.reason };
  return {
    id: item.id,
    reason: item.reason,
    raw,
    ...(item.text === undefined ? {} : { text: item.text }),
  };
}

/** The summary with one committed batch counted in. */
function counted(summary: PullSummary, batch: SortedBatch, counts: BatchCounts): PullSummary {
  const newly = withNotes(summary.newlyQuarantined, counts.quarantined);
  return {
    ...summary,
    fresh: summary.fresh + counts.fresh,
    repeats: summary.repeats + batch.repeats + counts.repeats,
    quarantined: summary.quarantined + batch.bad.length,
    ...(newly === undefined ? {} : { newlyQuarantined: newly }),
  };
}

/**
 * One pull of one target. Records are committed in batches as they stream in (memory stays
 * flat); the checkpoint moves only in the transaction of the last batch, which also records the
 * run's end, so a pull that fails part-way leaves the old checkpoint and the next pull fetches
 * the rest again (the ledger makes the repeats no-ops). A reconciliation pull never moves the
 * checkpoint. A failed pull is reported in the summary (`ok: false`, `error`), not thrown: one
 * bad list never stops the others.
 */
export async function pullTarget(
  deps: PullDeps,
  target: PullTarget,
  mode: PullMode = { kind: 'incremental' },
): Promise<PullSummary> {
  const { store, source, clock, settings } = deps;
  const localStart = clock.now();
  const steppedBackBefore = source.steppedBackMs();
  const lowered = store.followClockSteps(target, steppedBackBefore);
  // A list that only drops archived records is read whole, to see which it dropped.
  const wholeList = mode.kind === 'reconcile' && target.vanishing === true;
  const since =
    mode.kind === 'reconcile'
      ? wholeList
        ? FIRST_PULL_SINCE
        : reconcileSince(source.platformNow(), mode.days)
      : pullSince(target, store.watermark(target), source.platformNow(), settings);
  const listedIds = new Set<string>();
  let summary: PullSummary = {
    resource: target.resource,
    filter: target.filter,
    mode: mode.kind,
    since,
    startedAt: localStart.toISOString(),
    finishedAt: '',
    fetched: 0,
    fresh: 0,
    repeats: 0,
    quarantined: 0,
    watermark: undefined,
    ok: false,
    ...(lowered === undefined ? {} : { notice: steppedBackNotice(lowered) }),
  };
  // A whole list can be compared with the last whole one; a window only with a like window.
  const whole =
    wholeList ||
    (mode.kind === 'incremental' &&
      (since === FIRST_PULL_SINCE ||
        target.timeParam === undefined ||
        store.timeParamRefused(target)));
  let run: PullRun = { target, mode: mode.kind, startedAt: summary.startedAt, whole };
  const comparable = whole || mode.kind === 'reconcile';
  const progress = deps.progress?.({
    target,
    mode: mode.kind,
    expected: comparable ? store.lastCount(run) : undefined,
  });
  const bounds = boundsFor(target, settings, store.maxJsonDepth);
  let listed: ListItem[] = [];
  let setAside: SetAsideItem[] = [];
  // Large records fill a batch before its count does: memory stays near the record bound.
  let listedChars = 0;
  const takeBatch = (): SortedBatch => {
    const batch = sortOut(store, target, listed, setAside);
    listed = [];
    setAside = [];
    listedChars = 0;
    return batch;
  };
  const flush = (): void => {
    const batch = takeBatch();
    const counts = store.commitBatch(run, batch.records, batch.bad);
    run = { ...run, id: counts.runId };
    summary = counted(summary, batch, counts);
  };
  const consume = async (query: Record<string, string>): Promise<void> => {
    for await (const entry of source.listItems(target.resource, query, bounds, deps.stop)) {
      summary.fetched += 1;
      progress?.fetched(summary.fetched);
      if (wholeList) listedIds.add(listedId(entry));
      if ('setAside' in entry) setAside.push(entry);
      else {
        listed.push(entry);
        listedChars += entry.text.length;
      }
      const full = listed.length + setAside.length >= settings.batchSize;
      if (full || listedChars >= bounds.recordBytes.limit) {
        flush();
        // A list the platform sends faster than it is stored would keep the loop to itself: the
        // other lists, the queue's hand-overs and the endpoint get their turn between batches.
        await nextTurn();
      }
      if (deps.stop?.aborted === true) break;
    }
    if (deps.stop?.aborted === true) throw new Error('stopped');
  };
  try {
    const query = queryFor(target, since);
    if (!store.timeParamRefused(target)) {
      try {
        await consume(query);
      } catch (error) {
        if (!refusesGuessedTimeParam(target, error) || summary.fetched > 0) throw error;
        store.refuseTimeParam(target);
        run = { ...run, whole: true };
        summary.notice = fallbackNotice(target, error.status);
        await consume(withoutTimeParam(target, query));
      }
    } else await consume(withoutTimeParam(target, query));
    // A backward step seen during this pull, or a watermark ahead of the platform's clock: its
    // `since` was too late, so its end moves no checkpoint; the next pull starts from the
    // watermark lowered by the step.
    const incremental = mode.kind === 'incremental';
    const ahead = incremental ? store.followStepAhead(target, source.platformNow()) : undefined;
    if (ahead !== undefined) summary.notice = steppedBackNotice(ahead);
    const watermark =
      incremental && ahead === undefined && source.steppedBackMs() === steppedBackBefore
        ? nextWatermark(localStart, source.skewMs(), settings)
        : undefined;
    if (wholeList) {
      const vanished = store.reportVanished(target, listedIds);
      if (vanished > 0) summary.notice = vanishedNotice(target, vanished);
    }
    const last = takeBatch();
    let outcome = summary;
    store.commitBatch(run, last.records, last.bad, {
      ...(watermark === undefined ? {} : { advanceTo: watermark }),
      outcome: (counts) =>
        (outcome = {
          ...counted(summary, last, counts),
          watermark,
          ok: true,
          finishedAt: clock.now().toISOString(),
        }),
    });
    return outcome;
  } catch (error) {
    if (deps.stop?.aborted === true) {
      // What was read is kept, as a batch of its own; the checkpoint stays.
      if (listed.length + setAside.length > 0) flush();
      const stopped = { ...summary, stopped: true as const, error: STOPPED };
      store.failRun(run, { ...stopped, finishedAt: clock.now().toISOString() });
      return { ...stopped, finishedAt: clock.now().toISOString() };
    }
    const failed = {
      ...summary,
      error: errorMessage(error),
      cause: error,
      finishedAt: clock.now().toISOString(),
    };
    store.failRun(run, failed);
    return failed;
  } finally {
    progress?.end();
  }
}
