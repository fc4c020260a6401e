import type { Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import type { CheckResult } from './readiness.js';

/**
 * A check that costs something (a request to the platform, a file written), run at most once
 * per `intervalMs` and never while the last run is under way. `/readyz` reads the last result at
 * once, so a slow platform never makes the probe itself time out.
 */
export class CachedProbe {
  private last: (CheckResult & { at: number }) | undefined;
  private running: Promise<CheckResult> | undefined;

  constructor(
    private readonly check: () => Promise<void>,
    private readonly intervalMs: number,
    private readonly clock: Clock,
  ) {}

  /** The last result (starting a new run when it is older than the interval). */
  status(): CheckResult {
    const now = this.clock.now().getTime();
    if (this.last === undefined || now - this.last.at >= this.intervalMs) void this.refresh();
    if (this.last === undefined) return { ok: false, problem: 'not checked yet' };
    const { ok, problem } = this.last;
    return problem === undefined ? { ok } : { ok, problem };
  }

  /** Runs the check now (unless it is running already) and resolves with its result. */
  refresh(): Promise<CheckResult> {
    this.running ??= this.check()
      .then((): CheckResult => ({ ok: true }))
      .catch((error: unknown): CheckResult => ({ ok: false, problem: errorMessage(error) }))
      .then((result) => {
        this.last = { ...result, at: this.clock.now().getTime() };
        this.running = undefined;
        return result;
      });
    return this.running;
  }
}
