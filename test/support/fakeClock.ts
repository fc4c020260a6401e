import type { Clock } from '../../src/shared/clock.js';
import { eventually } from './eventually.js';

interface Sleeper {
  /** When it ends, in time passed on the clock (`passed`). */
  due: number;
  /** In the order the sleeps began: of two due at once, the first asleep wakes first. */
  order: number;
  wake: () => void;
}

/**
 * A clock tests move by hand; it may jump backwards, as real clocks do. Its sleeps end when the
 * test lets that much time pass (`advance`, `elapse`), never on their own: code that waits on
 * this clock waits for the test, not for real time. As a real timer, a sleep counts time passed,
 * not the date: setting the clock (`set`, or `advance` by a negative step) moves the date only.
 */
export class FakeClock implements Clock {
  private current: number;
  /** Time passed on this clock, in ms: what sleeps wait for. */
  private passed = 0;
  private readonly sleepers = new Set<Sleeper>();
  private begun = 0;

  constructor(start: Date | string = '2026-01-15T08:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted === true) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        due: this.passed + ms,
        order: (this.begun += 1),
        wake: () => {
          this.sleepers.delete(sleeper);
          signal?.removeEventListener('abort', sleeper.wake);
          resolve();
        },
      };
      this.sleepers.add(sleeper);
      signal?.addEventListener('abort', sleeper.wake);
    });
  }

  /** How many sleeps wait on this clock now: a test moves it once the code under test waits. */
  sleeping(): number {
    return this.sleepers.size;
  }

  /** Moves the date by `ms`; a step forward is time passing, which ends the sleeps it reaches. */
  advance(ms: number): void {
    this.current += ms;
    if (ms > 0) {
      this.passed += ms;
      this.wakeDue();
    }
  }

  /**
   * Moves the time on by `ms`, then waits until each sleep it ended was followed by a new one:
   * the loops it woke have run their round and wait again (a round that found work runs the next
   * first). Let the code under test begin waiting first, or a loop that only now starts its
   * first wait counts as one that went round.
   */
  async elapse(ms: number): Promise<void> {
    const begun = this.begun;
    this.current += ms;
    this.passed += ms;
    const woken = this.wakeDue();
    await eventually(
      () =>
        `the ${woken} loop(s) woken at ${this.now().toISOString()} to wait again (${this.begun - begun} did)`,
      () => this.begun - begun >= woken,
    );
  }

  /** Sets the date, as an operator or NTP does: no time passes, no sleep ends. */
  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }

  /** Ends the sleeps the time has reached, the earliest end first; says how many. */
  private wakeDue(): number {
    const due = [...this.sleepers]
      .filter((sleeper) => sleeper.due <= this.passed)
      .sort((a, b) => a.due - b.due || a.order - b.order);
    for (const sleeper of due) sleeper.wake();
    return due.length;
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
