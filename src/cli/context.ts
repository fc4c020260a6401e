import { createApp, type App } from '../app/app.js';
import { loadConfig, type Config } from '../config/index.js';
import { systemClock } from '../shared/clock.js';
import { openStore, type Store } from '../store/index.js';
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
 * Opens the database the config names for `work`, and closes it after. The commands that use
 * it only read or change the database, so they run without the API key and other secrets.
 */
export function withStore<T>(options: ConfigOption, work: (store: Store, config: Config) => T): T {
  const config = configOf(options, 'skip');
  const store = openStore({ path: config.storage.path, clock: systemClock });
  try {
    return work(store, config);
  } finally {
    store.close();
  }
}

/** withStore() for work that awaits (reads files beside the database): closed once it settles. */
export async function withStoreAsync<T>(
  options: ConfigOption,
  work: (store: Store, config: Config) => Promise<T>,
): Promise<T> {
  const config = configOf(options, 'skip');
  const store = openStore({ path: config.storage.path, clock: systemClock });
  try {
    return await work(store, config);
  } finally {
    store.close();
  }
}

/** Builds the whole daemon from the config for `work`, and closes it after. */
export async function withApp<T>(
  options: ConfigOption,
  work: (app: App) => Promise<T>,
): Promise<T> {
  const { config, source, warnings } = loadConfig({
    path: options.config,
    env: process.env,
    cwd: process.cwd(),
  });
  warnAbout(warnings);
  const app = await createApp(config, {
    clock: systemClock,
    env: process.env,
    configPath: source,
    isTerminal: process.stdout.isTTY === true,
  });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}
