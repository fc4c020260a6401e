import { describe, expect, it } from 'vitest';
import { CompletenessTracker } from '../../src/erp/inbox/completeness.js';

describe('file completeness without a marker', () => {
  const now = Date.parse('2026-03-01T08:00:10.000Z');

  it('takes a file at the first look when its mtime is older than the minimum age', () => {
    const tracker = new CompletenessTracker(2_000);
    expect(tracker.check('a.json', { size: 10, mtimeMs: now - 5_000 }, now)).toEqual({
      ready: true,
    });
  });

  it('waits for a file modified within the minimum age until it stays unchanged', () => {
    const tracker = new CompletenessTracker(2_000);
    const look = { size: 10, mtimeMs: now - 500 };
    expect(tracker.check('a.json', look, now).ready).toBe(false);
    expect(tracker.check('a.json', { size: 12, mtimeMs: now + 500 }, now + 1_000).ready).toBe(
      false,
    );
    expect(tracker.check('a.json', { size: 12, mtimeMs: now + 500 }, now + 2_000).ready).toBe(
      false,
    );
    expect(tracker.check('a.json', { size: 12, mtimeMs: now + 500 }, now + 3_100).ready).toBe(true);
  });

  it('never takes an empty file', () => {
    const tracker = new CompletenessTracker(0);
    expect(tracker.check('a.json', { size: 0, mtimeMs: now - 60_000 }, now).ready).toBe(false);
  });
});
