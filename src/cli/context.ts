import { createApp, type App } from '../app/app.js';
import { loadConfig, type Config } from '../config/index.js';
import { systemClock } from '../shared/clock.js';
import { openStore, type Store } from '../store/index.js';
import type { ConfigOption } from './options.js';

/** Config warnings go to stderr, one line each, beside the command's own output. */
export function warnAbout(warnings: readonly string[]): void {
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
}

/** The config the command's `-c` (or the environment, or the default path) names. */
export function configOf(options: ConfigOption): Config {
  const loaded = loadConfig({ path: options.config, env: process.env, cwd: process.cwd() });
  warnAbout(loaded.warnings);
  return loaded.config;
}

/** Opens the database the config names for `work`, and closes it after. */
export function withStore<T>(options: ConfigOption, work: (store: Store, config: Config) => T): T {
  const config = configOf(options);
  const store = openStore({ path: config.storage.path, clock: systemClock });
  try {
    return work(store, config);
  } finally {
    store.close();
  }
}

/** Builds the whole daemon from the config for `work`, and closes it after. */
export async function withApp<T>(
  options: ConfigOption,
  work: (app: App) => Promise<T>,
): Promise<T> {
  const app = await createApp(configOf(options), { clock: systemClock, env: process.env });
  try {
    return await work(app);
  } finally {
    await app.close();
  }
}
