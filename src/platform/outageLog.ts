import { stateLog, type Logger } from '../log/index.js';
import type { Clock } from '../shared/clock.js';
import type { Outage } from './breaker.js';

/**
 * The platform's reach as a state (the platform-wide breaker: no connection could be made): a
 * warning when it starts, again every STATE_RELOG_MS while it lasts, info when it is back.
 * Pulls and jobs that fail meanwhile wait and go on by themselves, logging only at debug. Call
 * the answer when the breaker opens or closes (the client's `outageChanged`), and now and then
 * for the summary.
 */
export function outageLog(
  logger: Logger,
  clock: Clock,
  outage: () => Outage | undefined,
): () => void {
  const log = stateLog({
    logger,
    now: () => clock.now().getTime(),
    lines: () => ({
      down: ({ since, problem }, again) =>
        `${again ? 'still: ' : ''}the platform cannot be reached (since ${since}): ${problem}; pulls and writes wait and go on by themselves once it is back`,
      back: (since) =>
        `the platform can be reached again (unreachable since ${since}); the work goes on`,
    }),
    fields: { code: 'PLATFORM_UNREACHABLE' },
  });
  return () => {
    const now = outage();
    log.tell(
      now === undefined
        ? undefined
        : { since: new Date(now.since).toISOString(), problem: now.reason },
    );
  };
}
