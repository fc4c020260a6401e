/** The fewest items a batch takes, so a slow disk still makes progress. */
const MIN_BATCH = 10;

export type BatchSizer = ReturnType<typeof batchSizer>;

/**
 * Sizes the batches of a long write (retention's pruning, a pull's storing) by how long the last
 * one held the event loop: halved when it took longer than `targetMs`, grown by a quarter (up to
 * `most`) when it took less than half of it; it starts at 100 at most. Measured, not clocked: it
 * sizes batches, it decides nothing about what they hold.
 */
export function batchSizer(most: number, targetMs: number, now = () => performance.now()) {
  let limit = Math.min(most, 100);
  return {
    limit: () => limit,
    measure<T>(batch: () => T): T {
      const started = now();
      const result = batch();
      const took = now() - started;
      if (took > targetMs) limit = Math.max(Math.min(MIN_BATCH, most), Math.floor(limit / 2));
      else if (took < targetMs / 2) limit = Math.min(most, Math.ceil(limit * 1.25));
      return result;
    },
  };
}
