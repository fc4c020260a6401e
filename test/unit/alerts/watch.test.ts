import { describe, expect, it } from 'vitest';
import { alertWatch, ALERT_NAMES, type Conditions } from '../../../src/alerts/watch.js';

const quiet = (): Conditions =>
  Object.fromEntries(
    ALERT_NAMES.map((name) => [name, { active: false, summary: `${name} fine` }]),
  ) as Conditions;

const at = (minutes: number) => new Date(Date.UTC(2026, 2, 1, 8, minutes));

describe('alert states', () => {
  it('fires once when a state starts, stays silent while it lasts, resolves once when it clears', () => {
    const watch = alertWatch(60 * 60_000);
    const down = { ...quiet(), platformUnreachable: { active: true, summary: 'down' } };
    expect(watch.observe(at(0), quiet())).toEqual([]);
    const fired = watch.observe(at(1), down);
    expect(fired).toEqual([
      {
        state: 'firing',
        alert: 'platformUnreachable',
        summary: 'down',
        since: at(1).toISOString(),
        details: {},
      },
    ]);
    for (let minute = 2; minute < 12; minute += 1)
      expect(watch.observe(at(minute), down)).toEqual([]);
    const resolved = watch.observe(at(12), quiet());
    expect(resolved.map((e) => [e.state, e.alert, e.since])).toEqual([
      ['resolved', 'platformUnreachable', at(1).toISOString()],
    ]);
    expect(watch.observe(at(13), quiet())).toEqual([]);
  });

  it('sends one digest per period for more events of a lasting state, none without new ones', () => {
    const watch = alertWatch(60 * 60_000);
    const dead = (count: number) => ({
      ...quiet(),
      deadLetter: { active: true, summary: 'dead', count },
    });
    expect(watch.observe(at(0), dead(1)).map((e) => e.state)).toEqual(['firing']);
    expect(watch.observe(at(10), dead(5))).toEqual([]);
    const [digest, ...more] = watch.observe(at(60), dead(7));
    expect(more).toEqual([]);
    expect(digest).toMatchObject({
      state: 'firing',
      alert: 'deadLetter',
      since: at(0).toISOString(),
      details: { count: 7, repeats: 6 },
    });
    expect(digest?.summary).toContain('6 more since');
    expect(watch.observe(at(125), dead(7))).toEqual([]);
  });

  it('holds a stuck checkpoint back while the platform is unreachable, and tells it after', () => {
    const watch = alertWatch(60 * 60_000);
    const both = {
      ...quiet(),
      platformUnreachable: { active: true, summary: 'down' },
      checkpointStuck: { active: true, summary: 'behind' },
    };
    expect(watch.observe(at(0), both).map((e) => e.alert)).toEqual(['platformUnreachable']);
    const stuckOnly = { ...quiet(), checkpointStuck: { active: true, summary: 'behind' } };
    expect(watch.observe(at(5), stuckOnly).map((e) => [e.alert, e.state])).toEqual([
      ['platformUnreachable', 'resolved'],
      ['checkpointStuck', 'firing'],
    ]);
  });
});
