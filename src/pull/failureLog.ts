import { waitLog, type Logger } from '../log/index.js';
import type { PlatformFailures } from '../platform/index.js';
import { failureLevel, TransientError } from '../shared/errors.js';

export interface PullFailures {
  /**
   * A list failed for a reason that passes on its own (a 503, a time-out, its breaker open):
   * said as part of one state; true when so (the caller logs the run at debug), false for a
   * failure each run must say (it needs a person, or it is a bug).
   */
  failed(what: string, cause: unknown, fields: Record<string, unknown>): boolean;
  /** A list passed: the last of the failing lists to pass ends the state. */
  passed(what: string): void;
}

/**
 * Failing lists as one state (design.md #27.7): the first failure is a warning, the lists
 * failing meanwhile are summed up every 15 minutes, and the last one to pass again says so at
 * info, instead of a warning per list and run (some 30 a minute). A failure of a platform
 * outage's kind (a 5xx, a time-out, a reset) joins that outage's state (`platform`), which the
 * queue's jobs meeting it join too; one the platform-wide outage log tells (watched) stays out.
 */
export function pullFailures(
  logger: Logger,
  now: () => number,
  platform?: PlatformFailures,
): PullFailures {
  const log = waitLog({
    logger,
    now,
    lines: () => ({
      down: (problem, count, again) =>
        again ? `still: ${count} list(s) fail to pull; the latest, ${problem}` : problem,
      back: (since) => `every list that failed to pull passes again (failing since ${since})`,
    }),
  });
  return {
    failed(what, cause, fields) {
      if (platform?.failed(`pull ${what}`, cause, fields) === true) return true;
      const level = failureLevel(cause);
      if (!(cause instanceof TransientError) || level === 'debug') return false;
      log.waits({
        cause: 'PULL_FAILING',
        member: what,
        level,
        problem: `pull of ${what} failed: ${cause.message}`,
        fields: { ...fields, code: cause.code },
      });
      return true;
    },
    passed(what) {
      platform?.passed(`pull ${what}`);
      log.ended(what);
    },
  };
}
