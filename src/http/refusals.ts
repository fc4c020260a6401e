import type { Logger } from 'pino';
import { stateLog, type StateLines, type StateLog } from '../log/index.js';

/** One request the endpoint refused: what it answered, to what, why and to whom. */
export interface Refusal {
  status: number;
  /**
   * The matched route (`/erp/:kind`), or `unmatched`, `connection` (beyond the connection
   * budget) or `parser` (refused by the HTTP parser, before any route) where none was.
   */
  route: string;
  reason: string;
  client: string | undefined;
}

/** While refusals of one kind keep coming, they are summed up this often. */
const RELOG_MS = 60_000;
/** Refusals of one kind that stopped coming this long ago are over: their count is said. */
export const QUIET_MS = 10_000;

interface Burst {
  count: number;
  lastAt: number;
}

/**
 * Refused requests as states, one per (status, route, reason): the first is logged at once at
 * warn, a summary with the count so far every minute while more keep coming, and one line at
 * info with the count once none came for QUIET_MS (`sweep`, which the endpoint calls every
 * second), so a burst of refusals is visible at once and counted soon after, without flooding
 * the log. The reason never holds the token or a message's content, only what was wrong with it.
 */
export class RefusalLog {
  private readonly bursts = new Map<string, Burst & Refusal>();
  private readonly log: StateLog;

  constructor(
    logger: Logger,
    private readonly count: (status: number, route: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    this.log = stateLog({ logger, now, relogMs: RELOG_MS, lines: (key) => this.lines(key) });
  }

  refused(refusal: Refusal): void {
    this.count(refusal.status, refusal.route);
    const key = `${refusal.status} ${refusal.route} ${refusal.reason}`;
    const burst = this.bursts.get(key) ?? { ...refusal, count: 0, lastAt: 0 };
    this.bursts.set(key, burst);
    burst.count += 1;
    burst.lastAt = this.now();
    const fields = { client: refusal.client };
    this.log.holds({ cause: key, member: key, problem: refusal.reason, fields });
  }

  /** Ends the bursts none of which came for QUIET_MS, each with its count. */
  sweep(): void {
    const at = this.now();
    for (const [key, burst] of this.bursts) {
      if (at - burst.lastAt < QUIET_MS) continue;
      this.log.ends(key);
      this.bursts.delete(key);
    }
  }

  private lines(key: string): StateLines {
    const burst = this.bursts.get(key);
    if (burst === undefined) throw new Error(`no burst of refusals ${key}`);
    const { status, route, reason } = burst;
    return {
      down: (_state, again) =>
        again
          ? `http ${status} refused: ${reason} (still coming: ${burst.count} since the first)`
          : `http ${status} refused: ${reason}`,
      back: (since) =>
        `http ${status} refused: ${reason}: ${burst.count} in all since ${since}, none for ${QUIET_MS / 1000} s`,
      // Read at each line: the one that ends it carries the count too.
      fields: {
        status,
        route,
        reason,
        get count() {
          return burst.count;
        },
      },
    };
  }
}
