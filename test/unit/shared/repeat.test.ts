import { describe, expect, it } from 'vitest';
import { repeat } from '../../../src/shared/repeat.js';
import { eventually, quietFor } from '../../support/eventually.js';

/** A round that counts its runs and resolves what `found` says. */
function counting(found: (run: number) => boolean | Promise<boolean> = () => false) {
  const runs = { count: 0 };
  const round = async () => found((runs.count += 1));
  return { runs, round };
}

/** In-process rounds come within milliseconds; under vitest's timeout, so a failure names them. */
const SOON = 10_000;
/** One turn of the event loop: what is due at once has run, a timer has not. */
const turn = () => new Promise((resolve) => setImmediate(resolve));
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
    await eventually('the first round at once', () => atOnce.runs.count === 1, SOON);
    await Promise.all([first.stop(), second.stop()]);
    expect([atOnce.runs.count, later.runs.count]).toEqual([1, 0]);
  });

  it('follows a round that found work, and a wake, at once; otherwise waits', async () => {
    const { runs, round } = counting((run) => run < 3);
    const loop = repeat(round, { intervalMs: 60_000, firstAtOnce: true, onError: noError });
    await eventually('three rounds', () => runs.count >= 3, SOON);
    await turn();
    expect(runs.count).toBe(3);
    loop.wake();
    await eventually('the round after the wake', () => runs.count >= 4, SOON);
    await turn();
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
    await eventually('the round after the failed one', () => runs.count >= 2, SOON);
    expect(errors).toEqual([new Error('first fails')]);
    expect(runs.count).toBe(2);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await turn();
    expect(stopped).toBe(false);
    release();
    await stopping;
    // Real time: repeat waits on real timers (it takes no clock); a wait left behind by the
    // stop would start a round within 1 ms.
    await quietFor(20, 'no round after the stop', () => runs.count === 2);
  });
});
