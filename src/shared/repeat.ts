import type { Clock } from './clock.js';

/** A loop started by `repeat`. */
export interface Repeating {
  /** Ends the wait before the next round now; a round under way is followed by the next at once. */
  wake(): void;
  /** No more rounds; resolves once the round under way has ended. */
  stop(): Promise<void>;
}

export interface RepeatOptions {
  /** The wait after a round before the next, unless woken. */
  intervalMs: number;
  /** Whether the first round runs at once; otherwise it waits `intervalMs` like the others. */
  firstAtOnce: boolean;
  /** Told of a failed round; the loop goes on. */
  onError(error: unknown): void;
  /** Whose time the waits are: the daemon's clock, which a test moves by hand. */
  clock: Pick<Clock, 'sleep'>;
}

/**
 * Runs `round` until stopped, never two at once: waits `intervalMs` on the clock after each
 * round ended (a wait per round, never an interval, so a slow round is not followed by a queue
 * of them and a stopped loop leaves no wait behind). A round that resolves `true` (it found
 * work, so more may wait) or a `wake()` while it ran is followed by the next at once.
 */
export function repeat(round: () => Promise<boolean | void>, options: RepeatOptions): Repeating {
  const stopped = new AbortController();
  let woken = false;
  let endWait: (() => void) | undefined;

  /** Waits `ms`, or less when woken or stopped. */
  const wait = async (ms: number): Promise<void> => {
    const waking = new AbortController();
    const end = () => waking.abort();
    endWait = end;
    stopped.signal.addEventListener('abort', end);
    try {
      await options.clock.sleep(ms, waking.signal);
    } finally {
      stopped.signal.removeEventListener('abort', end);
      if (endWait === end) endWait = undefined;
    }
  };

  const loop = async (): Promise<void> => {
    if (!options.firstAtOnce) await wait(options.intervalMs);
    while (!stopped.signal.aborted) {
      woken = false;
      let again: boolean | void = false;
      try {
        again = await round();
      } catch (error) {
        options.onError(error);
      }
      if (again !== true && !woken && !stopped.signal.aborted) await wait(options.intervalMs);
    }
  };
  const done = loop();

  return {
    wake() {
      woken = true;
      endWait?.();
    },
    async stop() {
      stopped.abort();
      await done;
    },
  };
}
