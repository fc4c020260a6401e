import type { Clock } from '../shared/clock.js';

/**
 * The platform's clock as seen through the `Date` header of its responses.
 *
 * offset = Date header − midpoint(local send time, local time the headers arrived). The header
 * has one-second resolution and is truncated, so the estimate runs up to one second (plus half
 * the round trip) behind the platform. That direction is the safe one for `updatedAfter`: an
 * earlier watermark only widens the overlap, which the ledger removes. The latest response
 * wins, so a platform clock that is corrected is followed at once.
 */
export class PlatformClock {
  private offsetMs: number | undefined;

  constructor(private readonly clock: Clock) {}

  observe(sentAt: Date, receivedAt: Date, dateHeader: string | undefined): void {
    if (dateHeader === undefined) return;
    const platformMs = Date.parse(dateHeader);
    if (Number.isNaN(platformMs)) return;
    const midpoint = (sentAt.getTime() + receivedAt.getTime()) / 2;
    this.offsetMs = Math.round(platformMs - midpoint);
  }

  /** Platform time minus local time; 0 until a response told us otherwise. */
  skewMs(): number {
    return this.offsetMs ?? 0;
  }

  /** The platform's time now: the local clock corrected by the last estimate. */
  platformNow(): Date {
    return new Date(this.clock.now().getTime() + this.skewMs());
  }
}
