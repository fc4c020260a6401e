import { pino } from 'pino';
import { createApp, type App } from '../../src/app/app.js';
import { loadConfig } from '../../src/config/index.js';
import { systemClock } from '../../src/shared/clock.js';

/** The daemon's pieces in this process (what `sync --once` builds), on the system clock. */
export function openApp(configPath: string, folder: string): Promise<App> {
  const { config } = loadConfig({ path: configPath, env: {}, cwd: folder });
  return createApp(config, { clock: systemClock, env: {}, logger: pino({ enabled: false }) });
}
