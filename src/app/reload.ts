import { resolve } from 'node:path';
import type { Config } from '../config/index.js';
import type { Door } from '../http/door.js';
import { errorMessage, SetupError } from '../shared/errors.js';
import type { App } from './app.js';
import { startDaemon, startFields, type Carried, type RunningDaemon } from './daemon.js';
import { openDoorFor, sameAddress } from './endpoint.js';
import { takeWriterLock, type WriterLock } from './writerLock.js';

/** How a reload went: applied, or refused with every problem (the old config runs on). */
export type ReloadOutcome = { applied: true } | { applied: false; problems: string[] };

/** The daemon of `run`: one process that rebuilds itself from its config on request (SIGHUP). */
export interface ReloadableDaemon {
  /** The app the daemon runs now: replaced by each reload that is applied. */
  readonly app: App;
  /**
   * Reads the config again with the checks of a start; when it passes, builds the new daemon
   * beside the running one, stops the running one's work (its pulls at their next batch
   * boundary) and starts the new one, which takes the endpoint's listening socket over: the
   * port answers throughout. A refused reload leaves the running daemon as it was and closes
   * whatever it opened. Requests that come in a burst, or while a reload runs, are one reload
   * (after the one running).
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
  /**
   * Builds the daemon's parts from it; throws what a start would, having closed what it opened.
   * `beside`: a daemon runs on the same files meanwhile (see AppDeps.beside).
   */
  build(loaded: Loaded, beside?: boolean): Promise<App>;
}

/**
 * A reload starts once requests for it stopped coming for this long: a burst of SIGHUPs (a
 * config tool signalling once per file it changed) is one reload. Never later than
 * RELOAD_MOST_WAIT_MS after the first.
 */
const RELOAD_QUIET_MS = 250;
const RELOAD_MOST_WAIT_MS = 5_000;

/** The next reload while it gathers requests: what they all get, and how one more holds it. */
interface Gathering {
  outcome: Promise<ReloadOutcome>;
  /** One more request: the quiet wait starts again (up to RELOAD_MOST_WAIT_MS in all). */
  nudge(): void;
}

/** What runs now: the app, its daemon, and the door its endpoint is on. */
interface Running {
  app: App;
  daemon: RunningDaemon;
  door: Door | undefined;
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
  let running: Running;
  let firstDoor: Door | undefined;
  try {
    // The process keeps the listening socket; each daemon's endpoint takes it over.
    firstDoor = first.config.http.enabled ? await openDoorFor(first.config) : undefined;
    // Quiet: this process says when it starts and stops, not each daemon a reload replaces.
    const daemon = await startDaemon(first, { lock, quiet: true, door: firstDoor });
    running = { app: first, daemon, door: firstDoor };
  } catch (error) {
    await firstDoor?.close();
    lock.release();
    await first.close();
    throw error;
  }
  first.logger.info(startFields(first, running.daemon.url), 'homecare-sync started');
  let stopOnItsOwn: (why: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stopOnItsOwn = resolve));
  const watch = (daemon: RunningDaemon) =>
    void daemon.stopped.then(() => stopOnItsOwn(DATABASE_GONE));
  watch(running.daemon);
  let stopping: Promise<void> | undefined;

  const refused = (problems: string[]): ReloadOutcome => {
    running.app.logger.error(
      { problems, config: running.app.configPath },
      `config reload refused, the running config stays: ${problems.join('; ')}`,
    );
    return { applied: false, problems };
  };

  /** After the new config's daemon failed to start: the running config's, again, on its door. */
  async function startAgain(carried: Carried): Promise<void> {
    const { app, door, daemon: before } = running;
    try {
      const daemon = await startDaemon(app, { lock, quiet: true, door, carried });
      await before.closeEndpoint();
      running = { app, daemon, door };
      watch(daemon);
    } catch (error) {
      app.logger.fatal({ err: error }, `${NO_RESTART}: ${errorMessage(error)}; stopping`);
      stopOnItsOwn(NO_RESTART);
    }
  }

  /** The door the new config's endpoint goes on: the one open, unless it names another address. */
  async function doorFor(next: App): Promise<Door | undefined> {
    if (!next.config.http.enabled) return undefined;
    const { door } = running;
    if (door !== undefined && sameAddress(door, next.config)) return door;
    return openDoorFor(next.config);
  }

  /**
   * Builds the new config's daemon beside the running one (a config or setup it refuses leaves
   * the running one untouched, and is closed again), stops the running one's work, starts the
   * new one on the door, and only then closes what the old one had: the endpoint answers
   * throughout. When the new one cannot start, the running config's daemon starts again.
   */
  async function replaceWith(loaded: Loaded): Promise<ReloadOutcome> {
    let next: App;
    let door: Door | undefined;
    try {
      next = await source.build(loaded, true);
    } catch (error) {
      return refused(problemsOf(error));
    }
    try {
      door = await doorFor(next);
    } catch (error) {
      await next.close();
      return refused(problemsOf(error));
    }
    const old = running;
    const carried = await old.daemon.stop();
    let daemon: RunningDaemon;
    try {
      daemon = await startDaemon(next, { lock, quiet: true, door, carried });
    } catch (error) {
      await next.close();
      if (door !== old.door) await door?.close();
      await startAgain(carried);
      return refused(problemsOf(error));
    }
    running = { app: next, daemon, door };
    watch(daemon);
    await old.daemon.closeEndpoint();
    if (old.door !== door) await old.door?.close();
    await old.app.close();
    next.logger.info(startFields(next, daemon.url), 'config reloaded');
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
    const moved = storageMoved(running.app, loaded.config);
    if (moved.length > 0) return refused(moved);
    return replaceWith(loaded);
  }

  // The reload under way, and the next one, which gathers the requests that come meanwhile.
  let current: Promise<ReloadOutcome> | undefined;
  let next: Gathering | undefined;
  function gather(): Gathering {
    let fire: () => void = () => undefined;
    const fired = new Promise<void>((resolve) => (fire = resolve));
    const since = performance.now();
    let last = since;
    // Looked at on the loop's turn after the timer: signals that came while the loop was busy
    // are handled after the timers of that turn, and would otherwise start a reload each.
    const quietYet = () =>
      setImmediate(() => {
        const now = performance.now();
        const quiet = now - last >= RELOAD_QUIET_MS || now - since >= RELOAD_MOST_WAIT_MS;
        if (quiet) fire();
        else setTimeout(quietYet, RELOAD_QUIET_MS - (now - last));
      });
    setTimeout(quietYet, RELOAD_QUIET_MS);
    const outcome = fired
      .then(() => current?.catch(() => undefined))
      .then(() => {
        next = undefined;
        return (current = reloadNow().finally(() => (current = undefined)));
      });
    return {
      outcome,
      nudge() {
        last = performance.now();
      },
    };
  }

  return {
    get app() {
      return running.app;
    },
    reload() {
      if (next !== undefined) next.nudge();
      else next = gather();
      return next.outcome;
    },
    stop() {
      stopping ??= (async () => {
        await next?.outcome.catch(() => undefined);
        await current?.catch(() => undefined);
        const { app, daemon, door } = running;
        await daemon.stop();
        await daemon.closeEndpoint();
        await door?.close();
        lock.release();
        app.logger.info('homecare-sync stopped');
        await app.close();
      })();
      return stopping;
    },
    stopped,
  };
}
