/** The one way code reads the time, so tests can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * A base clock plus an offset that can be moved: the simulator's clock (its control API moves
 * it, to give the platform a skewed or jumping clock), and a daemon's clock under test (the
 * CLI's test hook moves it, so what the clock decides passes without waiting in real time).
 */
export class OffsetClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly base: Clock) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs);
  }

  move(offsetMs: number): void {
    this.offsetMs += offsetMs;
  }

  set(to: Date): void {
    this.offsetMs = to.getTime() - this.base.now().getTime();
  }

  resetOffset(): void {
    this.offsetMs = 0;
  }
}
