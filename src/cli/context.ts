import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApp, type App, type AppDeps } from '../app/app.js';
import { takeWriterLock } from '../app/writerLock.js';
import { loadConfig, type Config, type LoadedConfig } from '../config/index.js';
import { systemClock, type Clock } from '../shared/clock.js';
import { PermanentError, SetupError } from '../shared/errors.js';
import { removeStaleDryRuns } from '../housekeeping/index.js';
import { openStore, type Store } from '../store/index.js';
import { CliExit, EXIT } from './exit.js';
import { clockOf } from './testClock.js';
import type { ConfigOption } from './options.js';

/** Config warnings go to stderr, one line each, beside the command's own output. */
export function warnAbout(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
}

/**
 * The config the command's `-c` (or the environment, or the default path) names. `skip`: its
 * secrets are not read, for commands that never talk to the platform or the ERP.
 */
export function configOf(options: ConfigOption, secrets: 'read' | 'skip' = 'read'): Config {
  const loaded = loadConfig({
    path: options.config,
    env: process.env,
    cwd: process.cwd(),
    secrets,
  });
  warnAbout(loaded.warnings);
  return loaded.config;
}

/**
 * What a command does about the copies killed dry runs left beside the database: `remove` them
 * at its start (every command that opens the database, saying so on stderr), or `keep` them for
 * `status` to list.
 */
export type StaleCopies = 'remove' | 'keep';

/** Opens the database the config names, the stale dry-run copies beside it removed first. */
function openFor(config: Config, copies: StaleCopies = 'remove'): Store {
  if (copies === 'remove') {
    for (const removed of removeStaleDryRuns(config.storage.path)) {
      process.stderr.write(
        `removed ${removed}: the copy of the database a dry run left when it was killed (it held every patient's data)\n`,
      );
    }
  }
  return openStore({ path: config.storage.path, clock: systemClock });
}

/**
 * Opens the database the config names for `work`, and closes it after. The commands that use
 * it only read or change the database, so they run without the API key and other secrets.
 * `read`: `work` may not write (SQLite's query_only refuses it), once the schema is migrated.
 * `copies`: see StaleCopies.
 */
export function withStore<T>(
  options: ConfigOption,
  work: (store: Store, config: Config) => T,
  access: 'read' | 'write' = 'write',
  copies: StaleCopies = 'remove',
): T {
  const config = configOf(options, 'skip');
  const store = openFor(config, copies);
  try {
    if (access === 'read') store.db.pragma('query_only = ON');
    return work(store, config);
  } finally {
    store.close();
  }
}

/** withStore() for an operator's change: a refusal (PermanentError) exits 1 with its message. */
export function withStoreOrExit<T>(options: ConfigOption, work: (store: Store) => T): T {
  try {
    return withStore(options, work);
  } catch (error) {
    if (error instanceof PermanentError) throw new CliExit(EXIT.failure, error.message);
    throw error;
  }
}

/**
 * Runs `work` holding the database's writer lock, which a running daemon holds: `command` is
 * refused then, its last line saying why the daemon must stop first (`stopFirst`).
 */
export function whileNoDaemonRuns<T>(
  store: Store,
  refusal: { command: string; stopFirst: string },
  work: () => T,
): T {
  let lock;
  try {
    lock = takeWriterLock(store);
  } catch (error) {
    if (!(error instanceof SetupError)) throw error;
    const lines = [
      `${refusal.command} refused: ${error.message}`,
      ...error.problems.map((problem) => `  ${problem}`),
      refusal.stopFirst,
    ];
    throw new CliExit(EXIT.failure, lines.join('\n'));
  }
  try {
    return work();
  } finally {
    lock.release();
  }
}

/**
 * withStore() for work that awaits (reads files beside the database): closed once it settles.
 * `copies`: see StaleCopies; `access`: see withStore.
 */
export async function withStoreAsync<T>(
  options: ConfigOption,
  work: (store: Store, config: Config) => Promise<T>,
  copies: StaleCopies = 'remove',
  access: 'read' | 'write' = 'write',
): Promise<T> {
  const config = configOf(options, 'skip');
  const store = openFor(config, copies);
  try {
    if (access === 'read') store.db.pragma('query_only = ON');
    return await work(store, config);
  } finally {
    store.close();
  }
}

/**
 * withStoreAsync() for commands that only look: where the config's database does not exist yet,
 * `work` gets none, and none is created.
 */
export async function withStoreIfThere<T>(
  options: ConfigOption,
  work: (store: Store | undefined, config: Config) => Promise<T>,
): Promise<T> {
  const config = configOf(options, 'skip');
  if (!existsSync(resolve(config.storage.path))) return work(undefined, config);
  const store = openFor(config);
  try {
    return await work(store, config);
  } finally {
    store.close();
  }
}

/**
 * The config the command names, read with every check (secrets too), its warnings told: at the
 * start of a command that builds the daemon, and again on each reload of `run`.
 */
export function loadedConfigOf(options: ConfigOption): LoadedConfig {
  const loaded = loadConfig({ path: options.config, env: process.env, cwd: process.cwd() });
  warnAbout(loaded.warnings);
  return loaded;
}

let processClock: Clock | undefined;

/** What the daemon is built with from the command line: the process's clock, env and terminal. */
export function appDeps(source: string): AppDeps {
  return {
    clock: (processClock ??= clockOf(process.env, process)),
    env: process.env,
    configPath: source,
    isTerminal: process.stdout.isTTY === true,
    ...(process.stderr.isTTY ? { progressTerminal: process.stderr } : {}),
  };
}

/** The whole daemon, built from a loaded config; `beside` a running one (a reload). */
export function appFrom({ config, source }: LoadedConfig, beside = false): Promise<App> {
  return createApp(config, { ...appDeps(source), beside });
}

/** Builds the whole daemon from the config for `work`, and closes it after. */
export async function withApp<T>(
  options: ConfigOption,
  work: (app: App) => Promise<T>,
): Promise<T> {
  const app = await appFrom(loadedConfigOf(options));
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}
