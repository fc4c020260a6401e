import type { Variant } from '../../../src/contract/index.js';
import { createPlatformClient, type PlatformClientOptions } from '../../../src/platform/index.js';
import { FakeClock } from '../fakeClock.js';

export const API_KEY = 'secret-key-4711';

/** A client with instant sleeps whose waits are recorded, and jitter fixed at its maximum. */
export function clientFor(
  baseUrl: string,
  variant: Variant = 'B',
  overrides: Partial<PlatformClientOptions> = {},
) {
  const sleeps: number[] = [];
  const clock = new FakeClock();
  const client = createPlatformClient({
    baseUrl,
    apiKey: API_KEY,
    variant,
    timeoutMs: 5_000,
    concurrency: 2,
    clock,
    retry: { attempts: 3, baseDelayMs: 100, maxDelayMs: 10_000 },
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    random: () => 0.999,
    ...overrides,
  });
  return { client, sleeps, clock };
}

export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

/** The error a promise rejects with; fails the test when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}
