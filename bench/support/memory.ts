/** One reading of the process's memory, in bytes. */
export interface MemoryReading {
  rss: number;
  heapUsed: number;
}

export interface MemoryPeaks {
  peakRss: number;
  peakHeapUsed: number;
  samples: number;
}

export function readMemory(): MemoryReading {
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
}

/** node's gc() when the benchmark runs with --expose-gc (as `npm run bench` does). */
function exposedGc(): (() => void) | undefined {
  const gc: unknown = (globalThis as { gc?: unknown }).gc;
  return typeof gc === 'function' ? (gc as () => void) : undefined;
}

export function canCollect(): boolean {
  return exposedGc() !== undefined;
}

/**
 * The heap still in use after a full collection: what the code keeps alive, without the garbage
 * that has not been collected yet. Undefined without --expose-gc.
 */
export function liveHeap(): number | undefined {
  const gc = exposedGc();
  if (gc === undefined) return undefined;
  gc();
  return process.memoryUsage().heapUsed;
}

export interface MemorySampler {
  /** Takes a reading when the last one is `intervalMs` old: for loops that keep the timer from firing. */
  poll(): void;
  /** The highest heapUsed since the previous call (or the start): the peak of one stretch. */
  stretchPeak(): number;
  stop(): MemoryPeaks;
}

/**
 * Reads the memory every `intervalMs` until stopped and keeps the highest values. The timer
 * fires only when the event loop is free; code that keeps it busy calls poll() as it goes.
 */
export function sampleMemory(intervalMs = 50): MemorySampler {
  const peaks: MemoryPeaks = { peakRss: 0, peakHeapUsed: 0, samples: 0 };
  let last = 0;
  let stretch = 0;
  const take = (): void => {
    const reading = readMemory();
    stretch = Math.max(stretch, reading.heapUsed);
    peaks.peakRss = Math.max(peaks.peakRss, reading.rss);
    peaks.peakHeapUsed = Math.max(peaks.peakHeapUsed, reading.heapUsed);
    peaks.samples += 1;
    last = performance.now();
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    poll() {
      if (performance.now() - last >= intervalMs) take();
    },
    stretchPeak() {
      take();
      const peak = stretch;
      stretch = 0;
      return peak;
    },
    stop() {
      clearInterval(timer);
      take();
      return { ...peaks };
    },
  };
}
