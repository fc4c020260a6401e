import { describe, expect, it } from 'vitest';
import cron, { validate } from 'node-cron';
import pino from 'pino';
import type { ResourceName } from '../../../src/contract/index.js';
import { createLogger } from '../../../src/log/index.js';
import type { PullRunner } from '../../../src/pull/runner.js';
import { scheduleEntries, startScheduler } from '../../../src/pull/scheduler.js';
import { eventually } from '../../support/cli/daemonProcess.js';

function runnerOf(resources: ResourceName[], calls: string[]): PullRunner {
  return {
    resources: () => resources,
    runResource: (resource) => {
      calls.push(`pull ${resource}`);
      return Promise.resolve([]);
    },
    runAll: () => Promise.resolve([]),
    firstPass: () => Promise.resolve([]),
    reconcile: (days) => {
      calls.push(`reconcile ${days}`);
      return Promise.resolve([]);
    },
  };
}

describe('the schedule', () => {
  it('has one entry per scheduled resource and the reconciliation, each running its own pull', async () => {
    const calls: string[] = [];
    const entries = scheduleEntries(runnerOf(['singleOrder', 'article', 'region'], calls), {
      resources: { singleOrder: '*/1 * * * *', article: '0 * * * *' },
      reconcile: { enabled: true, schedule: '30 2 * * *', days: 7 },
      jitterSeconds: 10,
    });
    expect(entries.map((e) => [e.name, e.cron])).toEqual([
      ['pull singleOrder', '*/1 * * * *'],
      ['pull article', '0 * * * *'],
      ['reconcile', '30 2 * * *'],
    ]);
    expect(entries.every((e) => validate(e.cron))).toBe(true);
    for (const entry of entries) await entry.run();
    expect(calls).toEqual(['pull singleOrder', 'pull article', 'reconcile 7']);
  });

  it('leaves the reconciliation out when it is switched off', () => {
    const entries = scheduleEntries(runnerOf(['singleOrder'], []), {
      resources: { singleOrder: '*/1 * * * *' },
      reconcile: { enabled: false, schedule: '30 2 * * *', days: 7 },
      jitterSeconds: 0,
    });
    expect(entries.map((e) => e.name)).toEqual(['pull singleOrder']);
  });
});

describe('the scheduler', () => {
  it("writes node-cron's own warnings as our JSON log lines, naming the task, and nothing to the console", async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = createLogger({
      level: 'debug',
      destination: {
        write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
      },
    });
    const printed: unknown[] = [];
    const originals = { warn: console.warn, info: console.info, error: console.error };
    console.warn = console.info = console.error = (...args: unknown[]) => void printed.push(args);
    let release = () => undefined as void;
    const running = new Promise<void>((resolve) => (release = resolve));
    // Every second, and the first run never ends: the next time comes while it still runs.
    const scheduler = startScheduler(
      [{ name: 'pull region', cron: '* * * * * *', run: () => running }],
      0,
      logger,
    );
    try {
      const skipped = await eventually('node-cron to report the skipped run', () =>
        lines.find((l) => l['source'] === 'node-cron'),
      );
      expect(skipped).toMatchObject({
        level: 'warn',
        task: 'pull region',
        msg: expect.stringContaining('still running') as unknown,
      });
    } finally {
      release();
      await scheduler.stop();
      Object.assign(console, originals);
    }
    expect(printed).toEqual([]);
  });

  const hourIn = (at: Date | null | undefined, timeZone: string) =>
    at === null || at === undefined
      ? undefined
      : new Intl.DateTimeFormat('en', {
          timeZone,
          hour: '2-digit',
          minute: '2-digit',
          hourCycle: 'h23',
        }).format(at);

  it('reads the schedules in the configured time zone', async () => {
    const logger = pino({ enabled: false });
    const entry = { name: 'nightly in Berlin', cron: '0 2 * * *', run: () => Promise.resolve() };
    const scheduler = startScheduler([entry], 0, logger, { timezone: 'Europe/Berlin' });
    try {
      const task = [...cron.getTasks().values()].find((t) => t.name === entry.name);
      expect(hourIn(task?.getNextRun(), 'Europe/Berlin')).toBe('02:00');
    } finally {
      await scheduler.stop();
    }
  });
});
