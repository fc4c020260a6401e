import { describe, expect, it } from 'vitest';
import { runOutcome } from '../../../src/cli/commands/status.js';

describe("status's line for a list's latest run", () => {
  const base = { id: 1, resource: 'patient', filter: '', kind: 'pull' as const };

  it('says a pull is under way rather than that there was none', () => {
    const running = { ...base, startedAt: '2026-03-01T08:00:00.000Z', finishedAt: undefined };
    expect(runOutcome(running)).toBe('running since 2026-03-01T08:00:00.000Z');
    expect(runOutcome(undefined)).toBe('no run yet');
  });

  it('gives a finished run its counts or its error', () => {
    const finished = { ...base, startedAt: 'a', finishedAt: 'b', fetched: 3, new: 2 };
    expect(runOutcome({ ...finished, ok: true })).toBe('ok, 3 fetched, 2 new');
    expect(runOutcome({ ...finished, ok: false, error: 'HTTP 503' })).toBe('FAILED HTTP 503');
  });
});
