import { describe, expect, it } from 'vitest';
import { CompletenessTracker, EMPTY_FILE_WAIT_MS } from '../../../src/erp/inbound/completeness.js';

describe('file completeness without a marker', () => {
  const now = Date.parse('2026-03-01T08:00:10.000Z');

  // Design, #23 (b): an old mtime proves nothing (a writer's clock behind, a copy keeping its
  // source's mtime); only two looks at least minFileAgeMs apart that saw the same size and mtime.
  it('does not take a file at the first look, however old its mtime', () => {
    const tracker = new CompletenessTracker(2_000);
    const old = { size: 10, mtimeMs: now - 3_600_000 };
    expect(tracker.check('a.json', old, now)).toEqual({
      ready: false,
      reason: 'first seen; waiting to see it unchanged',
    });
    expect(tracker.check('a.json', old, now + 1_999)).toEqual({
      ready: false,
      reason: 'unchanged for 1999 ms of 2000 ms',
    });
    expect(tracker.check('a.json', old, now + 2_000)).toEqual({ ready: true });
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

  it('starts the wait again when the clock steps back between two looks', () => {
    const tracker = new CompletenessTracker(2_000);
    const look = { size: 10, mtimeMs: now - 60_000 };
    expect(tracker.check('a.json', look, now).ready).toBe(false);
    expect(tracker.check('a.json', look, now - 10_000).ready).toBe(false);
    expect(tracker.check('a.json', look, now - 8_001).ready).toBe(false);
    expect(tracker.check('a.json', look, now - 8_000).ready).toBe(true);
  });

  // Design, #23 (c): an empty file is taken (to be refused with a report) after a bounded wait,
  // rather than left in the inbox for ever; the wait leaves a slow writer time for its first byte.
  it('takes an empty file only once it stayed empty for EMPTY_FILE_WAIT_MS', () => {
    const tracker = new CompletenessTracker(0);
    const empty = { size: 0, mtimeMs: now - 3_600_000 };
    expect(tracker.check('a.json', empty, now)).toEqual({ ready: false, reason: 'empty so far' });
    expect(tracker.check('a.json', empty, now + EMPTY_FILE_WAIT_MS - 1)).toEqual({
      ready: false,
      reason: `empty for ${EMPTY_FILE_WAIT_MS - 1} ms of ${EMPTY_FILE_WAIT_MS} ms`,
    });
    expect(tracker.check('a.json', empty, now + EMPTY_FILE_WAIT_MS)).toEqual({ ready: true });
  });

  it('waits minFileAgeMs for an empty file when that is the longer wait', () => {
    const tracker = new CompletenessTracker(EMPTY_FILE_WAIT_MS * 2);
    const empty = { size: 0, mtimeMs: now };
    expect(tracker.check('a.json', empty, now).ready).toBe(false);
    expect(tracker.check('a.json', empty, now + EMPTY_FILE_WAIT_MS).ready).toBe(false);
    expect(tracker.check('a.json', empty, now + EMPTY_FILE_WAIT_MS * 2).ready).toBe(true);
  });

  it('starts the wait again when an empty file gets its first bytes', () => {
    const tracker = new CompletenessTracker(2_000);
    expect(tracker.check('a.json', { size: 0, mtimeMs: now }, now).ready).toBe(false);
    const written = { size: 10, mtimeMs: now + 50_000 };
    expect(tracker.check('a.json', written, now + EMPTY_FILE_WAIT_MS).ready).toBe(false);
    expect(tracker.check('a.json', written, now + EMPTY_FILE_WAIT_MS + 2_000).ready).toBe(true);
  });
});
