import type { Clock } from '../shared/clock.js';

/**
 * A platform time this much behind what the last answer and the time since would give is a
 * step back; less is the estimate's own noise (the header's one-second resolution and the round
 * trip).
 */
const STEP_BACK_MS = 5_000;
/**
 * A jump forward larger than this is believed only when CONFIRMATIONS answers in a row agree
 * on it (within AGREE_MS): one answer saying 2099 must not move every watermark to 2098.
 */
const FORWARD_TRUST_MS = 10 * 60_000;
const CONFIRMATIONS = 3;
const AGREE_MS = 5_000;

/**
 * The platform's clock as seen through the `Date` header of its responses.
 *
 * offset = Date header − midpoint(local send time, local time the headers arrived). The header
 * has one-second resolution and is truncated, so the estimate runs up to one second (plus half
 * the round trip) behind the platform. That direction is the safe one for `updatedAfter`: an
 * earlier watermark only widens the overlap, which the ledger removes. The latest response
 * wins, so a platform clock that is corrected is followed at once — backwards at once (and
 * counted in `steppedBackMs`, so that the pulls lower their watermarks by as much), forwards by
 * more than FORWARD_TRUST_MS only once confirmed.
 *
 * A step back is measured on the platform's own timeline with a monotonic timer (`elapsedMs`),
 * not by the offset: when the local clock steps forward, the offset drops as well, but the
 * platform's clock did not move and no watermark must.
 */
export class PlatformClock {
  private offsetMs: number | undefined;
  private steppedBack = 0;
  private ahead: { offsetMs: number; answers: number } | undefined;
  private lastSeen: { platformMs: number; elapsedMs: number } | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly elapsedMs: () => number = () => performance.now(),
  ) {}

  observe(sentAt: Date, receivedAt: Date, dateHeader: string | undefined): void {
    if (dateHeader === undefined) return;
    const platformMs = Date.parse(dateHeader);
    if (Number.isNaN(platformMs)) return;
    const midpoint = (sentAt.getTime() + receivedAt.getTime()) / 2;
    const offsetMs = Math.round(platformMs - midpoint);
    if (!this.believable(offsetMs)) return;
    this.countStepBack(platformMs);
    this.offsetMs = offsetMs;
  }

  private believable(offsetMs: number): boolean {
    const previous = this.offsetMs;
    if (previous !== undefined && offsetMs - previous > FORWARD_TRUST_MS) {
      const agrees =
        this.ahead !== undefined && Math.abs(this.ahead.offsetMs - offsetMs) <= AGREE_MS;
      this.ahead = { offsetMs, answers: agrees && this.ahead ? this.ahead.answers + 1 : 1 };
      if (this.ahead.answers < CONFIRMATIONS) return false;
    }
    this.ahead = undefined;
    return true;
  }

  private countStepBack(platformMs: number): void {
    const elapsedMs = this.elapsedMs();
    if (this.lastSeen !== undefined) {
      const expected = this.lastSeen.platformMs + (elapsedMs - this.lastSeen.elapsedMs);
      if (expected - platformMs > STEP_BACK_MS) this.steppedBack += expected - platformMs;
    }
    this.lastSeen = { platformMs, elapsedMs };
  }

  /** Platform time minus local time; 0 until a response told us otherwise. */
  skewMs(): number {
    return this.offsetMs ?? 0;
  }

  /** How far the platform's clock has stepped back, in all, since this process first saw it. */
  steppedBackMs(): number {
    return this.steppedBack;
  }

  /** The platform's time now: the local clock corrected by the last estimate. */
  platformNow(): Date {
    return new Date(this.clock.now().getTime() + this.skewMs());
  }
}
