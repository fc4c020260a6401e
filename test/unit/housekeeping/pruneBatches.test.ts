import { describe, expect, it } from 'vitest';
import { batchSizer } from '../../../src/shared/batchSizer.js';

/** A batch that takes `ms` on a clock the test moves. */
function timed(sizer: ReturnType<typeof batchSizer>, clock: { now: number }, ms: number): number {
  return sizer.measure(() => {
    clock.now += ms;
    return sizer.limit();
  });
}

describe('pruning batch size', () => {
  it('halves a batch that held the database longer than its aim, down to a floor', () => {
    const clock = { now: 0 };
    const sizer = batchSizer(500, 4, () => clock.now);
    expect(sizer.limit()).toBe(100);
    timed(sizer, clock, 9);
    expect(sizer.limit()).toBe(50);
    for (let i = 0; i < 10; i += 1) timed(sizer, clock, 9);
    expect(sizer.limit()).toBe(10);
  });

  it('grows a quick batch by a quarter, up to batchSize, and keeps one within its aim', () => {
    const clock = { now: 0 };
    const sizer = batchSizer(150, 4, () => clock.now);
    timed(sizer, clock, 1);
    expect(sizer.limit()).toBe(125);
    timed(sizer, clock, 1);
    expect(sizer.limit()).toBe(150);
    timed(sizer, clock, 3);
    expect(sizer.limit()).toBe(150);
  });

  it('never takes more rows than a batchSize below the floor', () => {
    const clock = { now: 0 };
    const sizer = batchSizer(3, 4, () => clock.now);
    timed(sizer, clock, 50);
    expect(sizer.limit()).toBe(3);
  });
});
