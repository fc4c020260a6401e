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
    stopRuns: () => undefined,
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
  it('skips and counts a tick that meets its run still going, with a debug line: nothing from node-cron, nothing to the console', async () => {
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
    const skipped: string[] = [];
    // Every second, and the first run never ends: the next time comes while it still runs.
    const scheduler = startScheduler(
      [{ name: 'pull region', cron: '* * * * * *', run: () => running }],
      0,
      logger,
      { timezone: 'UTC', skipped: (task, why) => void skipped.push(`${task} ${why}`) },
    );
    try {
      await eventually('a skipped tick', () => skipped.length > 0);
      expect(skipped[0]).toBe('pull region overlap');
      expect(
        lines.find((l) => l['msg'] === 'scheduled run skipped: its last run still goes'),
      ).toMatchObject({
        level: 'debug',
        task: 'pull region',
      });
    } finally {
      release();
      await scheduler.stop();
      Object.assign(console, originals);
    }
    expect(lines.filter((l) => l['source'] === 'node-cron')).toEqual([]);
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
