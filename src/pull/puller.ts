import type { ListEntry } from '../platform/index.js';
import { batchSizer } from '../shared/batchSizer.js';
import { errorMessage } from '../shared/errors.js';
import {
  fallbackNotice,
  listedId,
  refusesGuessedTimeParam,
  steppedBackNotice,
  STOPPED,
  vanishedNotice,
  withoutTimeParam,
} from './notices.js';
import { boundsFor } from './pullBounds.js';
import type { PullDeps, PullMode, PullRun, PullSummary } from './pullTypes.js';
import { counted, SLICE_MS, storePage, type PageStoring } from './storePage.js';
import type { PullTarget } from './targets.js';
import { FIRST_PULL_SINCE, nextWatermark, pullSince, queryFor, reconcileSince } from './window.js';

export type * from './pullTypes.js';

/**
 * One pull of one target. Records are stored in pages of `batchSize` as they stream in (memory
 * stays flat), each page in short slices (storePage.ts); the checkpoint moves only in the
 * transaction of the last slice, which also records the run's end, so a pull that fails
 * part-way leaves the old checkpoint and the next pull fetches the rest again (the ledger makes
 * the repeats no-ops). A reconciliation pull never moves the checkpoint. A failed pull is reported in the summary (`ok: false`, `error`), not thrown: one
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
  let page: ListEntry[] = [];
  // Large records fill a page before its count does: memory stays near the record bound.
  let pageChars = 0;
  const takePage = (): ListEntry[] => {
    const taken = page;
    page = [];
    pageChars = 0;
    return taken;
  };
  const storing: PageStoring = {
    store,
    target,
    size: batchSizer(settings.batchSize, SLICE_MS),
    commit(slice, end) {
      const counts = store.commitBatch(run, slice.records, slice.bad, end);
      run = { ...run, id: counts.runId };
      summary = counted(summary, slice, counts);
    },
  };
  const consume = async (query: Record<string, string>): Promise<void> => {
    for await (const entry of source.listItems(target.resource, query, bounds, deps.stop)) {
      summary.fetched += 1;
      progress?.fetched(summary.fetched);
      if (wholeList) listedIds.add(listedId(entry));
      page.push(entry);
      if (!('setAside' in entry)) pageChars += entry.text.length;
      if (page.length >= settings.batchSize || pageChars >= bounds.recordBytes.limit) {
        await storePage(storing, takePage());
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
    let outcome = summary;
    await storePage(storing, takePage(), (last) => ({
      ...(watermark === undefined ? {} : { advanceTo: watermark }),
      outcome: (counts) =>
        (outcome = {
          ...counted(summary, last, counts),
          watermark,
          ok: true,
          finishedAt: clock.now().toISOString(),
        }),
    }));
    return outcome;
  } catch (error) {
    if (deps.stop?.aborted === true) {
      // What was read is kept, as a page of its own; the checkpoint stays.
      if (page.length > 0) await storePage(storing, takePage());
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
