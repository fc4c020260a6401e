import type { FastifyPluginCallback } from 'fastify';
import type { AlertEvent } from '../alerts/index.js';
import type { Outage } from '../console/index.js';
import { handOversOf } from '../operations/index.js';
import type { App } from './app.js';
import type { DaemonHealth } from './daemonHealth.js';
import { cachedStorageFigures, inboxOf } from '../readModels/index.js';

/** What the daemon remembers for the console beside its database. */
export interface DaemonMemory {
  lastOutage: () => Outage | undefined;
  lastAlert: () => AlertEvent | undefined;
}

/**
 * The console's routes for the endpoint when `console.enabled`, else none. Loaded only then: a
 * daemon without the console loads none of it.
 */
export async function consoleOf(
  app: App,
  health: DaemonHealth,
  memory: DaemonMemory,
): Promise<FastifyPluginCallback | undefined> {
  if (!app.config.console.enabled) return undefined;
  const { consolePlugin } = await import('../console/index.js');
  return consolePlugin({
    config: app.config,
    store: app.store,
    clock: app.clock,
    logger: app.logger,
    handOvers: await handOversOf(app.config),
    daemon: () => ({
      readiness: health.ready(),
      lastOutage: memory.lastOutage(),
      lastAlert: memory.lastAlert(),
    }),
    storage: cachedStorageFigures(app.store, inboxOf(app.config)),
  });
}

/**
 * The platform's last outage, looked at on each call (the daemon's watch, every few seconds):
 * while one lasts, since when and why; once over, until when too.
 */
export function outageMemory(app: App): { look: () => void; last: () => Outage | undefined } {
  let last: Outage | undefined;
  return {
    look: () => {
      const current = app.client.outage();
      if (current !== undefined) {
        last = {
          since: new Date(current.since).toISOString(),
          problem: current.reason,
          until: undefined,
        };
      } else if (last !== undefined && last.until === undefined) {
        last = { ...last, until: app.clock.now().toISOString() };
      }
    },
    last: () => last,
  };
}
