import type { Logger } from 'pino';

/** One request the endpoint refused: what it answered, to what, why and to whom. */
export interface Refusal {
  status: number;
  /** The matched route (`/erp/:kind`), or `unmatched` / `connection` where none was. */
  route: string;
  reason: string;
  client: string | undefined;
}

const MINUTE_MS = 60_000;

/**
 * Logs refused requests, one line per (status, route, reason) and minute: the first at once, the
 * ones after it within the minute counted and reported with the next line (`repeated`), so a
 * flood of bad requests is visible without flooding the log. The reason never holds the token
 * or a message's content, only what was wrong with it.
 */
export class RefusalLog {
  private readonly lastLogged = new Map<string, { at: number; repeated: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly count: (status: number, route: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  refused(refusal: Refusal): void {
    this.count(refusal.status, refusal.route);
    const key = `${refusal.status} ${refusal.route} ${refusal.reason}`;
    const now = this.now();
    const last = this.lastLogged.get(key);
    if (last !== undefined && now - last.at < MINUTE_MS) {
      last.repeated += 1;
      return;
    }
    this.lastLogged.set(key, { at: now, repeated: 0 });
    this.forgetOld(now);
    const repeated = last?.repeated ?? 0;
    this.logger.warn(
      { ...refusal, ...(repeated > 0 ? { repeated } : {}) },
      `http ${refusal.status} refused: ${refusal.reason}` +
        (repeated > 0 ? ` (and ${repeated} more like it in the minute before)` : ''),
    );
  }

  /** Reasons not seen for a minute need no memory: their next line is logged anyway. */
  private forgetOld(now: number): void {
    for (const [key, entry] of this.lastLogged) {
      if (now - entry.at >= MINUTE_MS && entry.repeated === 0) this.lastLogged.delete(key);
    }
  }
}
