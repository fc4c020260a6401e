import type { ResourceName } from '../contract/index.js';
import { stateLog, type Logger, type StateLog } from '../log/index.js';
import type { PlatformFailures } from '../platform/index.js';
import { failureLevel, TransientError } from '../shared/errors.js';
import { pullTarget, type PullDeps, type PullSummary } from './puller.js';
import { logQuarantined } from './quarantined.js';
import { referenceWaves, type PullTarget } from './targets.js';
import { beforeWave } from './waveWait.js';

export interface PullRunner {
  /**
   * Pulls every target of `resource` once; undefined when a run of it is still going, none
   * when an operator paused its pulls.
   */
  runResource(resource: ResourceName): Promise<PullSummary[] | undefined>;
  /**
   * Pulls every target of the named resources (all when none is named), one resource at a time,
   * in the targets' order (what a record refers to first), whatever order they are named in.
   */
  runAll(resources?: readonly ResourceName[]): Promise<PullSummary[]>;
  /**
   * The daemon's pass at start: every resource once, in waves by reference (`referenceWaves`:
   * patients and articles side by side, then care arrangements, then orders). Each wave waits
   * for the care arrangements before it to end, and for the other lists before it WAVE_WAIT_MS
   * at most (waveWait.ts): a catalogue's first pull holds no order. Until it has reached a
   * resource, other runs of that resource (its schedule, the reconciliation) are skipped: an
   * order its schedule pulled before the pass pulled its care arrangement would wait for it.
   * `stopping` ends the pass between two waves.
   */
  firstPass(stopping: () => boolean): Promise<PullSummary[]>;
  /** A wide pull over the last `days` days that catches what the incremental pulls missed. */
  reconcile(days: number): Promise<PullSummary[]>;
  resources(): ResourceName[];
  /**
   * Ends the pulls under way at their next batch boundary, their requests cut (what they read is
   * kept, their checkpoints stay): the daemon stops or reloads and must not wait for a slow list.
   * Runs started after it go on as usual.
   */
  stopRuns(): void;
}

/**
 * Failing lists as one state (design.md #27.7): the first failure is a warning, the lists
 * failing meanwhile are summed up every 15 minutes, and the last one to pass again says so at
 * info, instead of a warning per list and run (some 30 a minute). A failure of a platform
 * outage's kind (a 5xx, a time-out, a reset) joins that outage's state (`platform`), which the
 * queue's jobs meeting it join too; one the platform-wide outage log tells (watched) stays out.
 */
interface ListWaits {
  lists: StateLog;
  platform: PlatformFailures | undefined;
}

function listWaits(logger: Logger, deps: PullDeps): ListWaits {
  const lists = stateLog({
    logger,
    now: () => deps.clock.now().getTime(),
    causeField: 'cause',
    countField: 'waiting',
    lines: () => ({
      down: ({ problem, count }, again) =>
        again ? `still: ${count} list(s) fail to pull; the latest, ${problem}` : problem,
      back: (since) => `every list that failed to pull passes again (failing since ${since})`,
    }),
  });
  return { lists, platform: deps.failures };
}

/**
 * A list failed for a reason that passes on its own (a 503, a time-out, its breaker open):
 * said as part of one state; true when so (the caller logs the run at debug), false for a
 * failure each run must say (it needs a person, or it is a bug).
 */
function listWaitsFor(waits: ListWaits, what: string, cause: unknown, fields: object): boolean {
  if (waits.platform?.failed(`pull ${what}`, cause, { ...fields }) === true) return true;
  const level = failureLevel(cause);
  if (!(cause instanceof TransientError) || level === 'debug') return false;
  const problem = `pull of ${what} failed: ${cause.message}`;
  const member = what;
  waits.lists.holds({
    cause: 'PULL_FAILING',
    member,
    level,
    problem,
    fields: { ...fields, code: cause.code },
  });
  return true;
}

/**
 * One line per pull: at info only when it found something, since an idle daemon pulls every
 * resource every few minutes; a pull that found nothing is a debug line. A failure the next run
 * may not see (a 503, a time-out) is part of the failing lists' state (listWaits), which
 * warns once; any other failure is an error.
 */
function logSummary(logger: Logger, summary: PullSummary, waits: ListWaits): void {
  const line = {
    resource: summary.resource,
    filter: summary.filter || undefined,
    mode: summary.mode,
    fetched: summary.fetched,
    new: summary.fresh,
    repeats: summary.repeats,
    quarantined: summary.quarantined,
    durationMs: Date.parse(summary.finishedAt) - Date.parse(summary.startedAt),
    watermark: summary.watermark,
  };
  if (summary.notice !== undefined) logger.warn({ resource: summary.resource }, summary.notice);
  logQuarantined(logger, summary.resource, summary.newlyQuarantined);
  const what = `${summary.resource}${summary.filter ? `?status=${summary.filter}` : ''}`;
  if (summary.stopped === true) {
    logger.info(line, `pull of ${what} ${summary.error ?? 'stopped'}`);
    return;
  }
  if (!summary.ok) {
    const failed = { ...line, err: summary.cause ?? summary.error };
    const message = `pull of ${what} failed: ${summary.error ?? 'unknown error'}`;
    // One that passes on its own is part of the failing lists' state, and only debug here.
    const level = listWaitsFor(waits, what, summary.cause, line)
      ? 'debug'
      : failureLevel(summary.cause);
    logger[level](failed, message);
    return;
  }
  waits.platform?.passed(`pull ${what}`);
  waits.lists.ends(what);
  if (summary.mode === 'reconcile' && summary.fresh > 0) {
    logger.warn(line, 'reconciliation found record versions the incremental pulls had missed');
  } else if (summary.fresh > 0 || summary.quarantined > 0) {
    logger.info(line, 'pull finished');
  } else logger.debug(line, 'pull finished');
}

/**
 * Runs pulls so that no two runs of one resource overlap, whoever asks (the schedule, the
 * reconciliation, `sync --once`): a run that finds its resource busy is skipped, not queued.
 * A run of a resource an operator paused is skipped too (the pause is read at each run, so a
 * `pause` or `resume` from another process counts at the next). `observe` hears every
 * finished run (the endpoint's metrics).
 */
export function createPullRunner(
  deps: PullDeps,
  targets: readonly PullTarget[],
  logger: Logger,
  observe: (summary: PullSummary) => void = () => undefined,
): PullRunner {
  const busy = new Set<ResourceName>();
  // Replaced once used: a stop ends the runs under way, not those after it.
  let stopping = new AbortController();
  const waits = listWaits(logger, deps);
  // The resources the first pass has still to reach (empty outside it).
  const beforeFirstPass = new Set<ResourceName>();
  const byResource = new Map<ResourceName, PullTarget[]>();
  for (const target of targets) {
    byResource.set(target.resource, [...(byResource.get(target.resource) ?? []), target]);
  }

  /** What runs one target: with the stop of the call it belongs to (stopRuns). */
  type Run = (target: PullTarget, stop: AbortSignal) => Promise<PullSummary>;

  async function exclusive(
    resource: ResourceName,
    run: Run,
    stop: AbortSignal,
    which: (target: PullTarget) => boolean = () => true,
  ): Promise<PullSummary[] | undefined> {
    // Debug: at a schedule of seconds a slow list meets its next tick often; the daemon counts
    // those skips as a metric.
    if (busy.has(resource)) {
      logger.debug({ resource }, 'pull skipped: the previous run of this resource is still going');
      return undefined;
    }
    if (beforeFirstPass.has(resource)) {
      logger.debug({ resource }, 'pull skipped: the first pass has not reached this resource yet');
      return undefined;
    }
    // Debug: a paused resource meets its schedule every few minutes; the pause itself is news.
    if (deps.store.paused(resource)) {
      logger.debug({ resource }, 'pull skipped: paused (homecare-sync resume pull)');
      return [];
    }
    busy.add(resource);
    try {
      const summaries: PullSummary[] = [];
      for (const target of (byResource.get(resource) ?? []).filter(which)) {
        if (stop.aborted) break;
        const summary = await run(target, stop);
        logSummary(logger, summary, waits);
        observe(summary);
        summaries.push(summary);
      }
      return summaries;
    } finally {
      busy.delete(resource);
    }
  }

  const known = (): ResourceName[] => [...byResource.keys()];
  const incremental: Run = (target, stop) => pullTarget({ ...deps, stop }, target);
  return {
    runResource: (resource) => exclusive(resource, incremental, stopping.signal),
    async runAll(resources) {
      const all: PullSummary[] = [];
      const named = resources ?? known();
      const stop = stopping.signal;
      for (const resource of known().filter((r) => named.includes(r))) {
        if (stop.aborted) break;
        all.push(...((await exclusive(resource, incremental, stop)) ?? []));
      }
      return all;
    },
    async firstPass(stopped) {
      const stop = stopping.signal;
      const under = new Map<ResourceName, Promise<PullSummary[] | undefined>>();
      known().forEach((resource) => beforeFirstPass.add(resource));
      try {
        for (const wave of referenceWaves(known())) {
          if (under.size > 0) await beforeWave(wave, under, targets, deps.clock);
          if (stopped() || stop.aborted) break;
          wave.forEach((resource) => beforeFirstPass.delete(resource));
          for (const r of wave) under.set(r, exclusive(r, incremental, stop));
        }
        return (await Promise.all(under.values())).flatMap((summaries) => summaries ?? []);
      } finally {
        beforeFirstPass.clear();
      }
    },
    async reconcile(days) {
      const all: PullSummary[] = [];
      const stop = stopping.signal;
      // A list without a time parameter is pulled whole every time: nothing to reconcile.
      const windowed = (target: PullTarget): boolean => target.timeParam !== undefined;
      const reconcile: Run = (t, signal) =>
        pullTarget({ ...deps, stop: signal }, t, { kind: 'reconcile', days });
      for (const resource of known()) {
        if (stop.aborted) break;
        all.push(...((await exclusive(resource, reconcile, stop, windowed)) ?? []));
      }
      return all;
    },
    resources: known,
    stopRuns() {
      stopping.abort();
      stopping = new AbortController();
    },
  };
}
