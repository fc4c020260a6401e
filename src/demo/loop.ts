import type { Clock } from '../shared/clock.js';
import { repeat, type Repeating } from '../shared/repeat.js';

/** A piece of the demo that works in ticks: one tick at a time, until stopped. */
export interface TickLoop {
  /** One round of work now (tests call this directly). */
  tick(): Promise<void>;
  /** Runs a tick every `intervalMs` (the next starts only after the last ended). */
  start(): void;
  /** No more ticks; waits for a tick under way, so nothing writes after this resolves. */
  stop(): Promise<void>;
}

/**
 * Repeats `work` every `intervalMs` of `clock` (`repeat`), the first after a wait too. A tick asked for
 * while one runs is that one, so ticks never overlap. A failed tick is reported and the loop
 * goes on.
 */
export function tickLoop(
  work: () => Promise<void>,
  intervalMs: number,
  clock: Pick<Clock, 'sleep'>,
  onError: (error: unknown) => void,
): TickLoop {
  let running: Promise<void> | undefined;
  let loop: Repeating | undefined;

  const tick = (): Promise<void> => {
    running ??= work()
      .catch(onError)
      .finally(() => (running = undefined));
    return running;
  };
  return {
    tick,
    start() {
      loop ??= repeat(tick, { intervalMs, firstAtOnce: false, clock, onError });
    },
    async stop() {
      await loop?.stop();
      loop = undefined;
      await running;
    },
  };
}
