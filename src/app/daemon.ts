import type { AlertMemory } from '../alerts/index.js';
import type { Door } from '../http/door.js';
import { FS_STEP_MS, withinTime } from '../shared/deadline.js';
import { errorMessage, failureLevel } from '../shared/errors.js';
import { repeat } from '../shared/repeat.js';
import { scheduleEntries, startScheduler, type Scheduler } from '../pull/scheduler.js';
import { outboxOf, type App } from './app.js';
import { startAlerts, type RunningAlerts } from './alerting.js';
import { outageMemory } from './console.js';
import { healthOf, startEndpoint } from './endpoint.js';
import { retentionEntries } from '../housekeeping/index.js';
import { inboxOf } from '../readModels/index.js';
import { numberBatchesAboveOutbox } from '../deliver/adapter.js';
import { rederiveAfterRestore } from '../operations/restored.js';
import { STORE_FULL } from '../store/index.js';
import { stateLog } from '../log/index.js';
import { takeWriterLock, type WriterLock } from './writerLock.js';

export interface DaemonOptions {
  /**
   * The writer lock, taken by the caller and kept across the daemons it starts one after the
   * other (a reload); without it the daemon takes the lock and releases it when it stops.
   */
  lock?: WriterLock;
  /** No start and stop lines: a reload says one line of its own. */
  quiet?: boolean;
  /**
   * The endpoint's listening socket, kept by the caller across the daemons it starts one after
   * the other (a reload): the endpoint takes it over, and leaves it open when the daemon stops.
   */
  door?: Door | undefined;
  /** What the daemon before this one knew and had not done (a reload). */
  carried?: Carried;
}

/** What a stopped daemon hands to the one after it (a reload): its alerts' states and unsent alerts. */
export interface Carried {
  alerts?: AlertMemory;
}

export interface RunningDaemon {
  /** The daemon's endpoint, when `http.enabled`. */
  url: string | undefined;
  /**
   * Stops scheduling, ends the pulls under way at their next batch boundary, waits for the
   * queue's jobs under way, releases the database (its own lock); answers what a daemon after
   * it takes over. An endpoint on a door it was given keeps answering until closeEndpoint().
   */
  stop(): Promise<Carried>;
  /** Closes the endpoint on the door it was given, once its requests under way ended. */
  closeEndpoint(): Promise<void>;
  /** Resolves when the daemon stopped on its own: its database was deleted or replaced. */
  stopped: Promise<void>;
}

/** How often the daemon looks whether its database file is still there. */
const WATCH_MS = 5_000;

/** While the disk stays full, it is said again this often. */
const ROOM_RELOG_MS = 60_000;

/** The database's room as a state: an error line when writes begin to fail for want of it. */
function roomLog(app: App): () => void {
  const log = stateLog({
    logger: app.logger,
    level: 'error',
    relogMs: ROOM_RELOG_MS,
    now: () => app.clock.now().getTime(),
    lines: () => ({
      down: ({ problem }, again) => `${again ? 'still: ' : ''}${problem}`,
      back: (since) =>
        `database ${app.store.path} can be written again (full since ${since}); the work goes on`,
    }),
    fields: { code: STORE_FULL },
  });
  return () => {
    const { fullSince, problem } = app.store.room;
    log.tell(
      fullSince === undefined
        ? undefined
        : { since: fullSince, problem: problem ?? 'the disk is full' },
    );
  };
}

/**
 * Every WATCH_MS: stops the daemon when its database was deleted or replaced under it, puts
 * back to pending the jobs whose outcome could not be written (a full disk; they run again), and
 * logs the full disk's and the platform's reach as states (roomLog, App.outageLog): the
 * outage's summary while it lasts (its start and end are told as they happen).
 */
function watchDatabase(
  app: App,
  lock: WriterLock,
  stopOnItsOwn: () => void,
  outages: { look: () => void },
): NodeJS.Timeout {
  const logRoom = roomLog(app);
  return setInterval(() => {
    if (!lock.stillInPlace()) {
      app.logger.fatal(
        `database ${app.store.path} was deleted or replaced while homecare-sync ran; stopping, since nothing written now would be kept`,
      );
      stopOnItsOwn();
      return;
    }
    try {
      app.worker.recover();
    } catch (error) {
      app.logger[failureLevel(error)](
        { err: error },
        `queue: could not free jobs left running: ${errorMessage(error)}`,
      );
    }
    logRoom();
    app.outageLog();
    outages.look();
  }, WATCH_MS);
}

/** What the start line says (and a reload's line). */
export function startFields(app: App, url: string | undefined) {
  return {
    version: app.version,
    config: app.configPath,
    database: app.store.path,
    variant: app.config.platform.variant,
    adapter: app.adapter.name,
    timezone: app.config.timezone,
    url,
  };
}

/**
 * The daemon: takes the writer lock, pulls every resource once at start and then on its
 * schedule, reads the inbox, runs the queue (which hands what was pulled to the ERP, queued by
 * the pull, and pushes back what the ERP sends), and serves the endpoint. `stop()` ends it
 * cleanly.
 */
export async function startDaemon(app: App, options: DaemonOptions = {}): Promise<RunningDaemon> {
  const { logger } = app;
  const ownLock = options.lock === undefined;
  const lock = options.lock ?? takeWriterLock(app.store);
  const releaseOwn = () => {
    if (ownLock) lock.release();
  };
  try {
    // A file system that never answers fails the start (or the reload) instead of holding it.
    const prepared = app.adapter.prepare?.() ?? Promise.resolve();
    await withinTime(prepared, FS_STEP_MS, outboxOf(app.config));
    numberBatchesAboveOutbox(app.store, app.adapter, logger);
    await withinTime(rederiveAfterRestore(app), FS_STEP_MS, 'the inbox archive');
  } catch (error) {
    releaseOwn();
    throw error;
  }
  const startedAt = app.clock.now();
  const health = await healthOf(app, startedAt);
  // Loaded with the health it looks at: a daemon without endpoint or alerts loads neither.
  const readinessLog = health === undefined ? undefined : await import('./readinessLog.js');
  const outages = outageMemory(app);
  // The alerts start after the endpoint, whose console shows their last.
  const alerts: { running?: RunningAlerts | undefined } = {};
  const memory = { lastOutage: outages.last, lastAlert: () => alerts.running?.last() };
  // First of all the parts, so that a port in use ends the start before anything runs.
  const endpoint = await startEndpoint(app, health, memory, options.door).catch(
    (error: unknown) => {
      releaseOwn();
      throw error;
    },
  );
  const logFailure = (what: string) => (error: unknown) =>
    logger[failureLevel(error)]({ err: error }, `${what} failed: ${errorMessage(error)}`);
  // Work under way, so that stop() waits for it before the database closes.
  const inFlight = new Set<Promise<unknown>>();
  const tracked = <T>(work: Promise<T>): Promise<T> => {
    inFlight.add(work);
    // Only the bookkeeping: the work's failure reaches whoever awaits `work`.
    void work.finally(() => inFlight.delete(work)).catch(() => undefined);
    return work;
  };
  const trackedRun = (run: () => Promise<unknown>) => () => tracked(run());
  try {
    app.worker.recover();
  } catch (error) {
    // A full disk; the watch below tries again.
    logFailure('freeing jobs left running')(error);
  }
  app.worker.start(app.config.queue.pollIntervalMs);
  let stopping: Promise<Carried> | undefined;
  const entries = scheduleEntries(app.runner, {
    resources: Object.fromEntries(
      app.resources.filter((r) => r.enabled).map((r) => [r.resource, r.schedule]),
    ),
    reconcile: app.config.sync.reconcile,
    jitterSeconds: app.config.sync.jitterSeconds,
  })
    .concat(
      retentionEntries({
        store: app.store,
        logger,
        retention: app.config.retention,
        inbox: inboxOf(app.config),
        stopping: () => stopping !== undefined,
      }),
    )
    .map((entry) => ({ ...entry, run: trackedRun(entry.run) }));
  const scheduler: Scheduler = startScheduler(entries, app.config.sync.jitterSeconds, logger, {
    timezone: app.config.timezone,
    skipped: (task, why) => app.metrics?.tickSkipped(task, why),
  });
  let stopStopped: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => (stopStopped = resolve));
  // The queue worker wakes when a job is queued in this process (deliveries, acknowledgements,
  // inbox messages) and polls every queue.pollIntervalMs for the rest: it needs no nudge.
  const { inbox } = app;
  const scans =
    inbox === undefined
      ? undefined
      : repeat(async () => void (await tracked(inbox.scanOnce())), {
          intervalMs: app.config.erp.file.scanIntervalMs,
          firstAtOnce: false,
          clock: app.clock,
          onError: logFailure('inbox scan'),
        });
  const watch = watchDatabase(app, lock, () => void stop().then(stopStopped), outages);
  const alerting =
    health === undefined ? undefined : startAlerts(app, health, options.carried?.alerts);
  alerts.running = alerting;
  const readiness = health === undefined ? undefined : readinessLog?.logReadiness(app, health);
  const ownDoor = options.door === undefined;
  function stop(): Promise<Carried> {
    stopping ??= (async () => {
      clearInterval(watch);
      const scansEnded = scans?.stop();
      await readiness?.stop();
      await alerting?.loop.stop();
      const alerts = await alerting?.alerts.stop();
      await scheduler.stop();
      // A slow list must not hold the stop: it ends at its next batch boundary.
      app.runner.stopRuns();
      if (ownDoor) await endpoint?.close();
      await Promise.allSettled([...inFlight, scansEnded]);
      await app.worker.stop();
      releaseOwn();
      if (options.quiet !== true) logger.info('homecare-sync stopped');
      return alerts === undefined ? {} : { alerts };
    })();
    return stopping;
  }
  if (options.quiet !== true) logger.info(startFields(app, endpoint?.url), 'homecare-sync started');
  // Resource by resource, so that a stop waits for the resource under way, not the whole pass
  // (a first pass over a big tenant takes far longer than a container is given to stop).
  const firstPass = () => app.runner.firstPass(() => stopping !== undefined);
  void trackedRun(firstPass)().catch(logFailure('the first pull'));
  return {
    url: endpoint?.url,
    stop,
    closeEndpoint: async () => {
      if (!ownDoor) await endpoint?.close();
    },
    stopped,
  };
}
