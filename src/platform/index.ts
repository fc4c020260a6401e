/**
 * Mechanism: the platform's HTTP client (undici). Auth, time-outs, typed errors, streamed lists,
 * read retries, the outage breaker, clock skew.
 */
import { createPlatformCore, type PlatformClientOptions, type PlatformCore } from './client.js';
import { endpointsOf, type PlatformEndpoints } from './endpoints.js';

/** The platform API as the daemon sees it: the generic core plus one method per endpoint. */
export type PlatformClient = PlatformCore & PlatformEndpoints;

export function createPlatformClient(options: PlatformClientOptions): PlatformClient {
  const core = createPlatformCore(options);
  return { ...core, ...endpointsOf(core) };
}

export type { PlatformClientOptions, PlatformCore } from './client.js';
export { createPlatformCore } from './client.js';
export * from './endpoints.js';
export type { ListEntry, ListItem, PlatformFile, PlatformRecord, SetAsideItem } from './bodies.js';
export type { ListBound } from './errors.js';
export type { ListBounds } from './listBounds.js';
export type { Query, QueryValue, SendRequest } from './prepare.js';
export { prepare } from './prepare.js';
export { DEFAULT_READ_RETRY, retryDelay, type RetryPolicy } from './backoff.js';
export { classifyStatus, parseRetryAfter, type StatusClass } from './retryable.js';
export { PlatformClock } from './skew.js';
export type { PeekAnswer } from './peek.js';
export { DEFAULT_LIST_BOUNDS, defaultMaxRecords } from './listBounds.js';
export { proxyRoute, shownProxy, type ProxyRoute } from './proxyRoute.js';
export { readCa } from './dispatcher.js';
export { outageKindOf, platformFailures, type PlatformFailures } from './failures.js';
export { outageLog } from './outageLog.js';
export type { Outage } from './breaker.js';
