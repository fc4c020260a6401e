import { resolve } from 'node:path';
import type { Config } from '../config/index.js';
import { errorMessage, SetupError } from '../shared/errors.js';
import type { App } from './app.js';
import { startDaemon, startFields, type RunningDaemon } from './daemon.js';
import { takeWriterLock, type WriterLock } from './writerLock.js';

/** How a reload went: applied, or refused with every problem (the old config runs on). */
export type ReloadOutcome = { applied: true } | { applied: false; problems: string[] };

/** The daemon of `run`: one process that rebuilds itself from its config on request (SIGHUP). */
export interface ReloadableDaemon {
  /** The app the daemon runs now: replaced by each reload that is applied. */
  readonly app: App;
  /**
   * Reads the config again with the checks of a start; when it passes, stops the daemon
   * cleanly (the work under way finishes) and starts it anew from the new config, in this
   * process, with the writer lock kept. A refused reload leaves the running daemon as it was.
   * Reloads run one after the other.
   */
  reload(): Promise<ReloadOutcome>;
  /** Stops the daemon (after a reload under way), releases the lock, closes the app. */
  stop(): Promise<void>;
  /**
   * Resolves, with why, when the daemon stopped on its own: its database was deleted or
   * replaced, or after a failed reload the running config could not start again either.
   */
  stopped: Promise<string>;
}

/** Why a daemon stops on its own: see ReloadableDaemon.stopped. */
export const DATABASE_GONE = 'database deleted or replaced';
export const NO_RESTART = 'the daemon could not start again after a refused reload';

/** Every problem of a refused config or setup, by config path where it has one. */
function problemsOf(error: unknown): string[] {
  if (error instanceof SetupError && error.problems.length > 0) return [...error.problems];
  return [errorMessage(error)];
}

/** A new database needs a new writer lock and a fresh start: a reload cannot move to one. */
function storageMoved(running: App, next: Config): string[] {
  // As openStore reads it: relative to the working folder; `:memory:` as it is.
  const configured = next.storage.path;
  const path = configured === ':memory:' ? configured : resolve(configured);
  if (path === running.store.path) return [];
  return [
    `storage.path: ${running.store.path} is the database this process holds; to use ${path}, restart homecare-sync`,
  ];
}

/** Where a reload gets its new daemon from: the config read as a start reads it, then built. */
export interface AppSource<Loaded extends { config: Config }> {
  /** Reads and checks the config file; throws its ConfigError with every problem. */
  load(): Loaded;
  /** Builds the daemon's parts from it; throws what a start would. */
  build(loaded: Loaded): Promise<App>;
}

/**
 * Starts the daemon of `first` (whose ownership passes to it) and, on each reload(), builds it
 * anew from `source`.
 */
export async function startReloadableDaemon<Loaded extends { config: Config }>(
  first: App,
  source: AppSource<Loaded>,
): Promise<ReloadableDaemon> {
  let lock: WriterLock;
  try {
    lock = takeWriterLock(first.store);
  } catch (error) {
    await first.close();
    throw error;
  }
  let app = first;
  let daemon: RunningDaemon;
  try {
    // Quiet: this process says when it starts and stops, not each daemon a reload replaces.
    daemon = await startDaemon(app, { lock, quiet: true });
  } catch (error) {
    lock.release();
    await first.close();
    throw error;
  }
  app.logger.info(startFields(app, daemon.url), 'homecare-sync started');
  let stopOnItsOwn: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stopOnItsOwn = resolve));
  const watch = (running: RunningDaemon) =>
    void running.stopped.then(() => stopOnItsOwn(DATABASE_GONE));
  watch(daemon);
  // Reloads and the stop wait for the reload before them.
  let turn: Promise<unknown> = Promise.resolve();
  let stopping: Promise<void> | undefined;

  const refused = (problems: string[]): ReloadOutcome => {
    app.logger.error(
      { problems, config: app.configPath },
      `config reload refused, the running config stays: ${problems.join('; ')}`,
    );
    return { applied: false, problems };
  };

  /** After the new config's daemon failed to build or start: the running config's, again. */
  async function startAgain(): Promise<void> {
    try {
      daemon = await startDaemon(app, { lock, quiet: true });
      watch(daemon);
    } catch (error) {
      app.logger.fatal({ err: error }, `${NO_RESTART}: ${errorMessage(error)}; stopping`);
      stopOnItsOwn(NO_RESTART);
    }
  }

  /**
   * Stops the running daemon, then builds and starts the new config's. Built only once the
   * running one has stopped: building prepares the ERP's folders (it removes the temp files a
   * crash left in the outbox), which must not happen under a daemon that writes there. When
   * the new one cannot be built or started, the running config's daemon starts again.
   */
  async function replaceWith(loaded: Loaded): Promise<ReloadOutcome> {
    await daemon.stop();
    let next: App | undefined;
    let started: RunningDaemon;
    try {
      next = await source.build(loaded);
      started = await startDaemon(next, { lock, quiet: true });
    } catch (error) {
      await next?.close();
      await startAgain();
      return refused(problemsOf(error));
    }
    const old = app;
    app = next;
    daemon = started;
    watch(daemon);
    await old.close();
    app.logger.info(startFields(app, daemon.url), 'config reloaded');
    return { applied: true };
  }

  async function reloadNow(): Promise<ReloadOutcome> {
    if (stopping !== undefined) return { applied: false, problems: ['the daemon is stopping'] };
    let loaded: Loaded;
    try {
      loaded = source.load();
    } catch (error) {
      return refused(problemsOf(error));
    }
    const moved = storageMoved(app, loaded.config);
    if (moved.length > 0) return refused(moved);
    return replaceWith(loaded);
  }

  return {
    get app() {
      return app;
    },
    reload() {
      const outcome = turn.then(reloadNow);
      turn = outcome.catch(() => undefined);
      return outcome;
    },
    stop() {
      stopping ??= turn.then(async () => {
        await daemon.stop();
        lock.release();
        app.logger.info('homecare-sync stopped');
        await app.close();
      });
      return stopping;
    },
    stopped,
  };
}
