import type { Clock } from '../../src/shared/clock.js';

/** A clock tests move by hand; it may jump backwards, as real clocks do. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-15T08:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }
}

/**
 * A fake clock that moves on by `stepMs` at every reading: time passes as work is done (a
 * reading per record, per request), the same way on every run, with no real waiting.
 */
export class TickingClock extends FakeClock {
  constructor(
    start: Date | string,
    private readonly stepMs: number,
  ) {
    super(start);
  }

  override now(): Date {
    const at = super.now();
    this.advance(this.stepMs);
    return at;
  }
}
