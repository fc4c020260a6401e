import type { Clock } from '../shared/clock.js';

/**
 * The simulator's own clock: a base clock plus an offset the control API moves, so a test can
 * give the platform a skewed or jumping clock while the daemon keeps its own.
 */
export class SimClock implements Clock {
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
