/**
 * Stage 1, pull: schedules a run per resource and status filter, pulls each list in its window,
 * stores the versions with their checkpoint and recognises our own writes coming back.
 */
import cron, { type Logger as CronLogger } from 'node-cron';
import type { Logger } from 'pino';
import type { ResourceName } from '../contract/index.js';
import { failureLevel } from '../shared/errors.js';
import type { PullRunner } from './runner.js';

export interface ScheduleEntry {
  name: string;
  cron: string;
  run: () => Promise<unknown>;
}

export interface ScheduleSettings {
  /** Cron expression per resource; resources absent here are not scheduled. */
  resources: Partial<Record<ResourceName, string>>;
  reconcile: { enabled: boolean; schedule: string; days: number };
  jitterSeconds: number;
}

/** What runs when: one entry per resource, plus the nightly reconciliation. */
export function scheduleEntries(runner: PullRunner, settings: ScheduleSettings): ScheduleEntry[] {
  const entries: ScheduleEntry[] = [];
  for (const resource of runner.resources()) {
    const expression = settings.resources[resource];
    if (expression)
      entries.push({
        name: `pull ${resource}`,
        cron: expression,
        run: () => runner.runResource(resource),
      });
  }
  if (settings.reconcile.enabled) {
    const { days } = settings.reconcile;
    entries.push({
      name: 'reconcile',
      cron: settings.reconcile.schedule,
      run: () => runner.reconcile(days),
    });
  }
  return entries;
}

export interface Scheduler {
  stop(): Promise<void>;
}

/**
 * node-cron's own messages (a run skipped because the last one still runs, a missed time) as
 * our JSON log lines with the task's name. Its default logger writes coloured text to stdout,
 * which breaks every tool that reads the log as JSON lines.
 */
export function cronLogger(logger: Logger, task: string): CronLogger {
  const log = logger.child({ task, source: 'node-cron' });
  const split = (message: string | Error, err?: Error): [object, string] =>
    typeof message === 'string' ? [{ err }, message] : [{ err: message }, message.message];
  return {
    info: (message) => log.info(message),
    warn: (message) => log.warn(message),
    error: (message, err) => log.error(...split(message, err)),
    debug: (message, err) => log.debug(...split(message, err)),
  };
}

/**
 * Starts the entries on node-cron. A run still going when its next time comes is skipped
 * (`noOverlap`); each run starts after a small random delay so that resources due at the same
 * minute do not hit the platform at once. Times are read in `timezone` (the config's).
 */
export function startScheduler(
  entries: readonly ScheduleEntry[],
  jitterSeconds: number,
  logger: Logger,
  zone: { timezone: string } = { timezone: 'UTC' },
): Scheduler {
  const tasks = entries.map((entry) =>
    cron.schedule(
      entry.cron,
      async () => {
        try {
          await entry.run();
        } catch (error) {
          logger[failureLevel(error)]({ err: error, task: entry.name }, 'scheduled run failed');
        }
      },
      {
        name: entry.name,
        noOverlap: true,
        maxRandomDelay: jitterSeconds * 1000,
        logger: cronLogger(logger, entry.name),
        timezone: zone.timezone,
      },
    ),
  );
  return {
    async stop() {
      for (const task of tasks) await task.destroy();
    },
  };
}
