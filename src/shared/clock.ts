import { setTimeout as realSleep } from 'node:timers/promises';

/** The one way code reads the time and waits for it, so tests can move it. */
export interface Clock {
  now(): Date;
  /**
   * Resolves once `ms` have passed on this clock, or as soon as `signal` aborts: it resolves
   * then too, never rejects, so a caller looks at its own signal to tell which. A test's clock
   * resolves it when the test moves the time that far.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  // Aborted: the sleep ends early, as asked; its AbortError is no fault.
  sleep: (ms, signal) =>
    realSleep(ms, undefined, signal === undefined ? {} : { signal }).catch(() => undefined),
};

/** A day of 24 hours in milliseconds (a calendar day in a zone may be an hour shorter or longer). */
export const DAY_MS = 86_400_000;

/**
 * A base clock plus an offset that can be moved: the simulator's clock (its control API moves
 * it, to give the platform a skewed or jumping clock), and a daemon's clock under test (the
 * CLI's test hook moves it, so what the clock decides passes without waiting in real time). Its
 * sleeps (an answer's latency, a loop's wait) are the base clock's: moving the offset jumps the
 * date, it lets no time pass.
 */
export class OffsetClock implements Clock {
  private offsetMs = 0;

  constructor(private readonly base: Clock) {}

  now(): Date {
    return new Date(this.base.now().getTime() + this.offsetMs);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.base.sleep(ms, signal);
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
