import type { PullTarget } from './targets.js';

/** Where the very first pull of a target starts: everything the platform has. */
export const FIRST_PULL_SINCE = '1970-01-01T00:00:00.000Z';
const DAY_MS = 86_400_000;

export interface WindowSettings {
  overlapSeconds: number;
  createdLookbackDays: number;
}

/**
 * The `updatedAfter` of the next pull. `status=created` lists look back at least
 * `createdLookbackDays`, so an order whose acknowledgement failed is pulled again until it
 * leaves the created list.
 */
export function pullSince(
  target: PullTarget,
  watermark: string | undefined,
  platformNow: Date,
  settings: WindowSettings,
): string {
  if (watermark === undefined) return FIRST_PULL_SINCE;
  if (target.filter !== 'created') return watermark;
  const lookback = new Date(platformNow.getTime() - settings.createdLookbackDays * DAY_MS);
  return Date.parse(watermark) < lookback.getTime() ? watermark : lookback.toISOString();
}

/**
 * The watermark a successful pull leaves: the moment the pull started, on the platform's clock
 * (our clock corrected by the skew measured from the platform's `Date` headers, including those
 * of this very pull), minus the overlap window that absorbs clock jitter and late commits.
 */
export function nextWatermark(localStart: Date, skewMs: number, settings: WindowSettings): string {
  return new Date(localStart.getTime() + skewMs - settings.overlapSeconds * 1000).toISOString();
}

/** The start of a reconciliation pull: N days back on the platform's clock. */
export function reconcileSince(platformNow: Date, days: number): string {
  return new Date(platformNow.getTime() - days * DAY_MS).toISOString();
}

export function queryFor(target: PullTarget, since: string): Record<string, string> {
  return {
    ...(target.status === undefined ? {} : { status: target.status }),
    ...(target.timeParam === undefined ? {} : { [target.timeParam]: since }),
  };
}
