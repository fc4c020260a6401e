import { referredResources, type ResourceName } from '../contract/index.js';
import type { Clock } from '../shared/clock.js';
import type { PullTarget } from './targets.js';

/**
 * How long the first pass's next wave waits for the lists before it that a hand-over can do
 * without: lists that end within it (a tenant of any usual size) are all in the mirror before
 * what refers to them is pulled; a longer one (a catalogue's first pull of 300,000 articles)
 * holds no order, whose hand-over reads an article the mirror lacks alone.
 */
export const WAVE_WAIT_MS = 1_000;

/** Resolves once `work` settled or `ms` passed on `clock`, whichever is first. */
async function settledOrAfter(
  work: Promise<unknown>,
  ms: number,
  clock: Pick<Clock, 'sleep'>,
): Promise<void> {
  const done = new AbortController();
  try {
    await Promise.race([settled(work), clock.sleep(ms, done.signal)]);
  } finally {
    done.abort();
  }
}

const settled = (work: Promise<unknown>): Promise<void> =>
  work.then(
    () => undefined,
    () => undefined,
  );

/**
 * Before a wave of the first pass starts: the runs under way (`earlier`, by resource) of what it
 * refers to and cannot read alone (care arrangements: the contract has no read of one), until
 * they ended; every other run before it for WAVE_WAIT_MS of the daemon's clock at most.
 */
export async function beforeWave(
  wave: readonly ResourceName[],
  earlier: ReadonlyMap<ResourceName, Promise<unknown>>,
  targets: readonly PullTarget[],
  clock: Pick<Clock, 'sleep'>,
): Promise<void> {
  const readAlone = new Set(targets.flatMap((t) => (t.readAlone === true ? [t.resource] : [])));
  const referred = new Set(wave.flatMap((resource) => referredResources(resource)));
  const needed = [...earlier].filter(([r]) => referred.has(r) && !readAlone.has(r));
  await Promise.all([
    ...needed.map(([, run]) => settled(run)),
    settledOrAfter(Promise.all(earlier.values()), WAVE_WAIT_MS, clock),
  ]);
}
