import { describe, expect, it } from 'vitest';
import { repeat } from '../../src/shared/repeat.js';

/** A round that counts its runs and resolves what `found` says. */
function counting(found: (run: number) => boolean | Promise<boolean> = () => false) {
  const runs = { count: 0 };
  const round = async () => found((runs.count += 1));
  return { runs, round };
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const noError = (error: unknown) => {
  throw error;
};

describe('repeat', () => {
  it('runs the first round at once or after the interval, as asked', async () => {
    const atOnce = counting();
    const later = counting();
    const first = repeat(atOnce.round, { intervalMs: 60_000, firstAtOnce: true, onError: noError });
    const second = repeat(later.round, {
      intervalMs: 60_000,
      firstAtOnce: false,
      onError: noError,
    });
    await tick(20);
    await Promise.all([first.stop(), second.stop()]);
    expect([atOnce.runs.count, later.runs.count]).toEqual([1, 0]);
  });

  it('follows a round that found work, and a wake, at once; otherwise waits', async () => {
    const { runs, round } = counting((run) => run < 3);
    const loop = repeat(round, { intervalMs: 60_000, firstAtOnce: true, onError: noError });
    await tick(20);
    expect(runs.count).toBe(3);
    loop.wake();
    await tick(20);
    expect(runs.count).toBe(4);
    await loop.stop();
  });

  it('reports a failed round and goes on; stop waits for the round under way', async () => {
    const errors: unknown[] = [];
    let release: () => void = () => undefined;
    const { runs, round } = counting(async (run) => {
      if (run === 1) throw new Error('first fails');
      await new Promise<void>((resolve) => (release = resolve));
      return false;
    });
    const loop = repeat(round, {
      intervalMs: 1,
      firstAtOnce: true,
      onError: (error) => errors.push(error),
    });
    await tick(20);
    expect(errors).toEqual([new Error('first fails')]);
    expect(runs.count).toBe(2);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await tick(5);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await tick(20);
    expect(runs.count).toBe(2);
  });
});
