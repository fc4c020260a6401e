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
}

/**
 * Runs `round` until stopped, never two at once: waits `intervalMs` after each round ended (a
 * timer per wait, never an interval, so a slow round is not followed by a queue of them and a
 * stopped loop leaves no timer behind). A round that resolves `true` (it found work, so more may
 * wait) or a `wake()` while it ran is followed by the next at once.
 */
export function repeat(round: () => Promise<boolean | void>, options: RepeatOptions): Repeating {
  const abort = new AbortController();
  let woken = false;
  let endWait: (() => void) | undefined;

  /** Waits `ms`, or less when woken or stopped. */
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        abort.signal.removeEventListener('abort', done);
        endWait = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      abort.signal.addEventListener('abort', done);
      endWait = done;
    });

  const loop = async (): Promise<void> => {
    if (!options.firstAtOnce) await wait(options.intervalMs);
    while (!abort.signal.aborted) {
      woken = false;
      let again: boolean | void = false;
      try {
        again = await round();
      } catch (error) {
        options.onError(error);
      }
      if (again !== true && !woken && !abort.signal.aborted) await wait(options.intervalMs);
    }
  };
  const done = loop();

  return {
    wake() {
      woken = true;
      endWait?.();
    },
    async stop() {
      abort.abort();
      await done;
    },
  };
}
