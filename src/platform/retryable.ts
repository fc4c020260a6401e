/**
 * The one table that decides which HTTP statuses are worth another try. The platform spec
 * names no status codes besides 403, so this follows HTTP semantics: the server was busy or
 * broken (5xx), the request timed out (408) or was throttled (429).
 */
export type StatusClass = 'success' | 'transient' | 'permanent';

const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([408, 429]);

export function classifyStatus(status: number): StatusClass {
  if (status >= 200 && status < 300) return 'success';
  if (status >= 500 && status < 600) return 'transient';
  return TRANSIENT_STATUSES.has(status) ? 'transient' : 'permanent';
}

/**
 * `Retry-After` as milliseconds from `now`: either delay-seconds or an HTTP date. A date in the
 * past means "now" (0); a value we cannot read is ignored (undefined), never guessed at.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  // Every HTTP date form starts with the day name; anything else Date.parse might still accept.
  const at = /^[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}

const OTHER_VARIANT =
  'the platform may follow another published variant of the API than the configured one: check platform.variant (A, B or C)';

/**
 * What a person reads next to a status: why it happened and what to do about it. Every request
 * goes to a path the configured variant lists, so a 404 or 405 where no record id is involved
 * means the platform does not have that path, most likely because it follows another variant.
 */
export function statusHint(status: number, hasId: boolean): string {
  if (status === 401 || status === 403) {
    return 'check platform.apiKey: the key is missing, invalid or not permitted for this operation';
  }
  if (status === 404 && hasId) {
    return `the record does not exist on the platform (check the id), or the path does not; if every such request fails like this, ${OTHER_VARIANT}`;
  }
  if (status === 404) return `the platform has no such path; ${OTHER_VARIANT}`;
  if (status === 405)
    return `the platform does not allow this method on this path; ${OTHER_VARIANT}`;
  if (status === 408 || status === 429) {
    return 'the platform is throttling or timed out; it will be retried later';
  }
  if (status >= 500) return 'the platform failed; it will be retried later';
  if (status >= 300 && status < 400) {
    return 'the platform redirected; set platform.baseUrl to the address it now uses';
  }
  return 'the platform rejected the request; check the record against the platform contract';
}
