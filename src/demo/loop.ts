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
 * Repeats `work` with a timer per round (never an interval), so ticks never overlap and a
 * stopped loop leaves no timer behind. A failed tick is reported and the loop goes on.
 */
export function tickLoop(
  work: () => Promise<void>,
  intervalMs: number,
  onError: (error: unknown) => void,
): TickLoop {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  const tick = (): Promise<void> => {
    running ??= work()
      .catch(onError)
      .finally(() => (running = undefined));
    return running;
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      timer = undefined;
      void tick().then(schedule);
    }, intervalMs);
  };
  return {
    tick,
    start() {
      if (!stopped) return;
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
