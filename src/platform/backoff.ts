/** How reads are retried: `attempts` counts every try, the first one included. */
export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_READ_RETRY: RetryPolicy = {
  attempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
};

/**
 * The wait before try number `nextAttempt` (2 for the first retry), or undefined when no try
 * is left. Exponential back-off with full jitter, capped at `maxDelayMs`. A `Retry-After`
 * from the platform wins over the back-off; one longer than `maxDelayMs` ends the retries
 * here, so the caller's own schedule (queue, next pull) waits instead of this process.
 */
export function retryDelay(
  policy: RetryPolicy,
  nextAttempt: number,
  random: () => number,
  retryAfterMs?: number,
): number | undefined {
  if (nextAttempt > policy.attempts) return undefined;
  if (retryAfterMs !== undefined) {
    return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
  }
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (nextAttempt - 2));
  return Math.floor(random() * ceiling);
}
