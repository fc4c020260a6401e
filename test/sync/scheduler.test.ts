import { describe, expect, it } from 'vitest';
import cron, { validate } from 'node-cron';
import pino from 'pino';
import type { ResourceName } from '../../src/contract/index.js';
import type { PullRunner } from '../../src/sync/runner.js';
import { scheduleEntries, startScheduler } from '../../src/sync/scheduler.js';

function runnerOf(resources: ResourceName[], calls: string[]): PullRunner {
  return {
    resources: () => resources,
    runResource: (resource) => {
      calls.push(`pull ${resource}`);
      return Promise.resolve([]);
    },
    runAll: () => Promise.resolve([]),
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
