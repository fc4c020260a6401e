import { createAlerts, type AlertEvent, type AlertMemory, type Alerts } from '../alerts/index.js';
import { alertsWanted } from '../config/alertsSchema.js';
import { repeat, type Repeating } from '../shared/repeat.js';
import { countOpenDeadJobs, deadLettersOpened } from '../store/index.js';
import type { App } from './app.js';
import type { DaemonHealth } from './daemonHealth.js';

export interface RunningAlerts {
  alerts: Alerts;
  loop: Repeating;
  /** The last alert sent (the console's health page shows it). */
  last(): AlertEvent | undefined;
}

/**
 * The daemon's alerts, when the config names a channel: the states are looked at every
 * `alerts.checkSeconds` through the same checks `/readyz` reports (`health`), plus the open
 * dead letters and the ERP messages refused.
 */
export function startAlerts(
  app: App,
  health: DaemonHealth,
  memory?: AlertMemory,
): RunningAlerts | undefined {
  const alerts = alertsOf(app, health, memory);
  const config = app.config.alerts;
  if (alerts === undefined || config === undefined) return undefined;
  let probed = false;
  let last: AlertEvent | undefined;
  const loop = repeat(
    async () => {
      // The first look waits for the probes: before them every check reads "not checked yet".
      if (!probed) await health.refresh();
      probed = true;
      last = alerts.check().at(-1) ?? last;
    },
    {
      intervalMs: config.checkSeconds * 1000,
      firstAtOnce: false,
      clock: app.clock,
      onError: (error) => app.logger.warn({ err: error }, 'alerts: looking at the states failed'),
    },
  );
  return { alerts, loop, last: () => last };
}

/**
 * The alerts the config asks for, looked at when `check` is called; undefined without a
 * channel. `memory`: what the alerts of the daemon before knew (a reload).
 */
export function alertsOf(app: App, health: DaemonHealth, memory?: AlertMemory): Alerts | undefined {
  const config = app.config.alerts;
  if (!alertsWanted(config)) return undefined;
  return createAlerts({
    config,
    readiness: health.ready,
    counts: () => ({
      openDeadLetters: countOpenDeadJobs(app.store),
      deadLettersOpened: deadLettersOpened(app.store),
      rejected: app.refusals.count,
      rejectedFiles: app.refusals.files,
      ...(app.refusals.lastAt === undefined ? {} : { lastRejectedAt: app.refusals.lastAt }),
    }),
    clock: app.clock,
    logger: app.logger,
    ...(memory === undefined ? {} : { memory }),
  });
}
