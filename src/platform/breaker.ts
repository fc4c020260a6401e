import type { Clock } from '../shared/clock.js';
import { errorMessage, TransientError } from '../shared/errors.js';
import type { RequestContext } from './errors.js';

/** How long requests are not sent after one proved the platform unreachable. */
export const UNREACHABLE_PAUSE_MS = 30_000;

/** Failures that say the platform itself is down, not that one request or record is wrong. */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set([
  'NETWORK',
  'HTTP_502',
  'HTTP_503',
  'HTTP_504',
]);

/**
 * A circuit breaker. A request that failed for good (its own retries spent) because the platform
 * cannot be reached opens it: for UNREACHABLE_PAUSE_MS every further request fails at once,
 * without spending its retries, so a pass over every list with the platform down ends after
 * the first list instead of retrying each one. The first request after the pause is sent.
 */
export class UnreachableBreaker {
  private openUntil = 0;
  private lastFailure = '';

  constructor(private readonly clock: Clock) {}

  /** Throws instead of sending while the breaker is open. */
  check(context: RequestContext): void {
    const waitMs = this.openUntil - this.clock.now().getTime();
    if (waitMs <= 0) return;
    const id = context.id === undefined ? '' : ` ${context.id}`;
    const until = new Date(this.openUntil).toISOString();
    throw new TransientError(
      `${context.label} (${context.resource}${id}) not sent: the platform was unreachable a moment ago (${this.lastFailure}); requests resume at ${until}`,
      {
        resource: context.resource,
        ...(context.id === undefined ? {} : { id: context.id }),
        code: 'PLATFORM_UNREACHABLE',
        hint: 'check that the platform (or the proxy in between) is up and reachable',
        retryAfterMs: waitMs,
      },
    );
  }

  /** Notes how a request ended after its retries: an unreachable platform opens the breaker. */
  settled(error: unknown): void {
    if (error instanceof TransientError && UNREACHABLE_CODES.has(error.code)) {
      this.openUntil = this.clock.now().getTime() + UNREACHABLE_PAUSE_MS;
      this.lastFailure = errorMessage(error);
    } else if (error === undefined) {
      this.openUntil = 0;
    }
  }
}
