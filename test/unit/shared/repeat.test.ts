import { describe, expect, it } from 'vitest';
import { repeat } from '../../../src/shared/repeat.js';
import { eventually } from '../../support/eventually.js';
import { FakeClock } from '../../support/fakeClock.js';

/** A round that counts its runs and resolves what `found` says. */
function counting(found: (run: number) => boolean | Promise<boolean> = () => false) {
  const runs = { count: 0 };
  const round = async () => found((runs.count += 1));
  return { runs, round };
}

/** In-process rounds come within milliseconds; under vitest's timeout, so a failure names them. */
const SOON = 10_000;
const INTERVAL_MS = 60_000;
/** One turn of the event loop: what is due at once has run, a timer has not. */
const turn = () => new Promise((resolve) => setImmediate(resolve));
const noError = (error: unknown) => {
  throw error;
};

/** Waits until the loop sleeps on `clock` (its round has ended), as a test must before moving it. */
const asleep = (clock: FakeClock, sleepers = 1) =>
  eventually(`${sleepers} loop(s) waiting on the clock`, () => clock.sleeping() === sleepers, SOON);

describe('repeat', () => {
  it('runs the first round at once or after the interval on its clock, as asked', async () => {
    const clock = new FakeClock();
    const atOnce = counting();
    const later = counting();
    const options = { intervalMs: INTERVAL_MS, onError: noError, clock };
    const first = repeat(atOnce.round, { ...options, firstAtOnce: true });
    const second = repeat(later.round, { ...options, firstAtOnce: false });
    await asleep(clock, 2);
    expect([atOnce.runs.count, later.runs.count]).toEqual([1, 0]);

    clock.advance(INTERVAL_MS - 1);
    await turn();
    expect([atOnce.runs.count, later.runs.count]).toEqual([1, 0]);
    clock.advance(1);
    await eventually('a round of each', () => atOnce.runs.count === 2 && later.runs.count === 1);
    await asleep(clock, 2);
    await Promise.all([first.stop(), second.stop()]);
    expect(clock.sleeping()).toBe(0);
  });

  it('follows a round that found work, and a wake, at once; otherwise waits for the clock', async () => {
    const clock = new FakeClock();
    const { runs, round } = counting((run) => run < 3);
    const loop = repeat(round, {
      intervalMs: INTERVAL_MS,
      firstAtOnce: true,
      onError: noError,
      clock,
    });
    await asleep(clock);
    expect(runs.count).toBe(3);
    loop.wake();
    await eventually('the round after the wake', () => runs.count >= 4, SOON);
    await asleep(clock);
    expect(runs.count).toBe(4);
    // The wake ended the wait it cut short: the clock reaching its end starts no extra round.
    clock.advance(INTERVAL_MS);
    await eventually('the round after the interval', () => runs.count >= 5, SOON);
    await asleep(clock);
    expect(runs.count).toBe(5);
    await loop.stop();
  });

  it('reports a failed round and goes on; stop waits for the round under way and leaves no wait', async () => {
    const clock = new FakeClock();
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
      clock,
    });
    await asleep(clock);
    expect(errors).toEqual([new Error('first fails')]);
    expect(runs.count).toBe(1);
    clock.advance(1);
    await eventually('the round after the failed one', () => runs.count >= 2, SOON);
    let stopped = false;
    const stopping = loop.stop().then(() => (stopped = true));
    await turn();
    expect(stopped).toBe(false);
    release();
    await stopping;
    // A wait left behind by the stop would start a round once the clock reaches its end.
    expect(clock.sleeping()).toBe(0);
    clock.advance(INTERVAL_MS);
    await turn();
    expect(runs.count).toBe(2);
  });
});
