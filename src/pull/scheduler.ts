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
  /** Answers NOT_RUN when it found its work under way already (another caller runs it). */
  run: () => Promise<unknown>;
}

/** What an entry's run answers when it did not run: the same work was under way already. */
export const NOT_RUN = Symbol('not run');

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
        run: async () => (await runner.runResource(resource)) ?? NOT_RUN,
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

/** Why a tick of a schedule did not start its run. */
export type SkippedTick = 'overlap' | 'missed';

export interface SchedulerOptions {
  /** IANA time zone the schedules are read in (the config's `timezone`). */
  timezone: string;
  /** Hears each tick that started no run (a metric): its run still going, or a missed time. */
  skipped?: (task: string, why: SkippedTick) => void;
}

/**
 * Starts the entries on node-cron. A tick that comes while the entry's last run still goes (or
 * another caller's run of the same work: the first pass, the reconciliation) starts no second
 * one: it is skipped and counted (`skipped`, the daemon's metrics), with a
 * debug line, not said as node-cron says it (a warning per tick: at a 1 s schedule, a platform
 * answering slowly made one a second per resource). Likewise a time node-cron missed (the
 * process was busy). Each run starts after a small random delay so that resources due at the
 * same minute do not hit the platform at once.
 */
export function startScheduler(
  entries: readonly ScheduleEntry[],
  jitterSeconds: number,
  logger: Logger,
  options: SchedulerOptions = { timezone: 'UTC' },
): Scheduler {
  const skip = (task: string, why: SkippedTick) => {
    options.skipped?.(task, why);
    const reason = why === 'overlap' ? 'its last run still goes' : 'the process was busy then';
    logger.debug({ task, skipped: why }, `scheduled run skipped: ${reason}`);
  };
  const tasks = entries.map((entry) => {
    let running = false;
    const task = cron.schedule(
      entry.cron,
      async () => {
        if (running) return skip(entry.name, 'overlap');
        running = true;
        try {
          if ((await entry.run()) === NOT_RUN) skip(entry.name, 'overlap');
        } catch (error) {
          logger[failureLevel(error)]({ err: error, task: entry.name }, 'scheduled run failed');
        } finally {
          running = false;
        }
      },
      {
        name: entry.name,
        // The overlap is ours to tell (above): node-cron's own check would warn on every tick.
        noOverlap: false,
        maxRandomDelay: jitterSeconds * 1000,
        logger: cronLogger(logger, entry.name),
        timezone: options.timezone,
      },
    );
    // A listener of its own keeps node-cron from warning about a missed time.
    task.on('execution:missed', () => skip(entry.name, 'missed'));
    return task;
  });
  return {
    async stop() {
      for (const task of tasks) await task.destroy();
    },
  };
}
