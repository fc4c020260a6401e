import { describe, expect, it } from 'vitest';
import { classifyStatus, parseRetryAfter, retryDelay } from '../../../src/platform/index.js';

describe('classifyStatus', () => {
  it.each([
    [200, 'success'],
    [201, 'success'],
    [204, 'success'],
    [408, 'transient'],
    [429, 'transient'],
    [500, 'transient'],
    [502, 'transient'],
    [503, 'transient'],
    [504, 'transient'],
    [301, 'permanent'],
    [400, 'permanent'],
    [401, 'permanent'],
    [403, 'permanent'],
    [404, 'permanent'],
    [409, 'permanent'],
    [422, 'permanent'],
  ] as const)('HTTP %i is %s', (status, expected) => {
    expect(classifyStatus(status)).toBe(expected);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-01-15T08:00:00.000Z');

  it('reads delay-seconds', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
  });

  it('reads an HTTP date relative to now', () => {
    expect(parseRetryAfter('Thu, 15 Jan 2026 08:00:30 GMT', now)).toBe(30_000);
  });

  it('treats a date in the past as now', () => {
    expect(parseRetryAfter('Thu, 15 Jan 2026 07:00:00 GMT', now)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  const policy = { attempts: 5, baseDelayMs: 1000, maxDelayMs: 5000 };

  it('grows exponentially under full jitter and is capped', () => {
    const top = () => 0.999_999;
    expect(retryDelay(policy, 2, top)).toBe(999);
    expect(retryDelay(policy, 3, top)).toBe(1999);
    expect(retryDelay(policy, 4, top)).toBe(3999);
    expect(retryDelay(policy, 5, top)).toBe(4999);
  });

  it('may wait nothing at all (full jitter)', () => {
    expect(retryDelay(policy, 3, () => 0)).toBe(0);
  });

  it('stops when every attempt is spent', () => {
    expect(retryDelay(policy, 6, () => 0.5)).toBeUndefined();
  });

  it('takes Retry-After over the back-off, unless it is longer than the cap', () => {
    expect(retryDelay(policy, 2, () => 0, 3000)).toBe(3000);
    expect(retryDelay(policy, 2, () => 0, 60_000)).toBeUndefined();
  });
});
