import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How tests wait for what runs on real time: a child process, a socket, a timer in code that
 * takes no clock. Where the code under test reads an injected clock, a test fakes it
 * (test/support/fakeClock.ts) and waits for nothing. `eventually` waits for a condition
 * (`pollUntil` where the test goes on either way), `withinBound` for a promise. `quietFor` is
 * the real wait for proving that something does not happen, where no fake clock can stand in
 * for the time: say at the call why.
 */

/** Generous, for a busy shared machine: a passing test never waits this long. */
export const WAIT_MS = 45_000;
/** Short, so that a test goes on soon after its condition holds. */
const EVERY_MS = 20;

type Awaitable<T> = T | Promise<T>;
/** What a check returns while its condition does not hold yet. */
type NotYet = undefined | null | false;
/** What a test waits for, in words for the failure; a function to tell what it saw so far. */
type What = string | (() => string);

export interface PollOptions {
  /** How long to look before giving up. */
  boundMs?: number;
  /** How long to wait between two looks (for a check that is costly to make). */
  everyMs?: number;
}

const words = (what: What) => (typeof what === 'string' ? what : what());

function pollOptions(options: number | PollOptions): Required<PollOptions> {
  const given = typeof options === 'number' ? { boundMs: options } : options;
  return { boundMs: given.boundMs ?? WAIT_MS, everyMs: given.everyMs ?? EVERY_MS };
}

/**
 * What `check` returns once that is something (not undefined, null or false), looking every
 * few milliseconds; undefined once the bound passed without it. For a wait that may end either
 * way; a test that needs the condition uses `eventually`.
 */
export async function pollUntil<T>(
  check: () => Awaitable<T | NotYet>,
  options: number | PollOptions = {},
): Promise<T | undefined> {
  const { boundMs, everyMs } = pollOptions(options);
  const deadline = performance.now() + boundMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (performance.now() >= deadline) return undefined;
    await sleep(everyMs);
  }
}

/** As `pollUntil`, but fails naming `what` it waited for once the bound passed. */
export async function eventually<T>(
  what: What,
  check: () => Awaitable<T | NotYet>,
  options: number | PollOptions = {},
): Promise<T> {
  const value = await pollUntil(check, options);
  if (value !== undefined) return value;
  throw new Error(`gave up waiting for ${words(what)} after ${pollOptions(options).boundMs} ms`);
}

/**
 * Waits `ms` of real time, looking every few milliseconds that `holds` still does; fails at
 * once when it no longer does, naming `what` should have stayed so.
 */
export async function quietFor(
  ms: number,
  what: What,
  holds: () => Awaitable<boolean>,
): Promise<void> {
  const end = performance.now() + ms;
  for (;;) {
    if (!(await holds())) throw new Error(`did not stay so for ${ms} ms: ${words(what)}`);
    const left = end - performance.now();
    if (left <= 0) return;
    await sleep(Math.min(EVERY_MS, left));
  }
}

/** Resolves as `promise` does, or fails after the bound naming `what` it waited for. */
export async function withinBound<T>(
  promise: Promise<T>,
  what: string,
  boundMs = WAIT_MS,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(new Error(`gave up waiting for ${what} after ${boundMs} ms`)),
      boundMs,
    );
  });
  try {
    return await Promise.race([promise, bound]);
  } finally {
    clearTimeout(timer);
  }
}
