import { request } from 'undici';
import type { ResourceName } from '../contract/index.js';
import { firstHeader } from '../shared/httpResponse.js';
import { networkError, type RequestContext } from './errors.js';
import { urlOf, type Transport } from './transport.js';

/** What a peek saw: the answer's status and headers, and when it was sent and answered. */
export interface PeekAnswer {
  status: number;
  /** The `Allow` header of a 405. */
  allow: string | undefined;
  /** The platform's `Date` header. */
  date: string | undefined;
  sentAt: Date;
  receivedAt: Date;
}

/** Bytes of an answer read before its connection is let go: a probe wants the status only. */
const BODY_READ_LIMIT = 64 * 1024;

/**
 * A GET of `path` (below the base URL, query included) whatever the configured variant says of
 * it, for `check --online`'s probes: a 404 or 405 is an answer here, not an error. Never a write,
 * never tried again, not guarded by the breakers (a probe of a missing path is no outage). The
 * `Date` header is watched as every answer's is; a connection that fails is the typed error.
 */
export async function peek(
  transport: Transport,
  resource: ResourceName,
  path: string,
): Promise<PeekAnswer> {
  const context: RequestContext = {
    label: `GET ${path.split('?')[0] ?? path}`,
    resource,
    id: undefined,
    secret: transport.apiKey,
  };
  const sentAt = transport.clock.now();
  try {
    const response = await request(urlOf(transport, path), {
      dispatcher: transport.dispatcher,
      method: 'GET',
      headers: { 'service-api-key': transport.apiKey, accept: 'application/json' },
    });
    const receivedAt = transport.clock.now();
    const date = firstHeader(response.headers, 'date');
    transport.platformClock.observe(sentAt, receivedAt, date);
    // The status and headers are the answer; a body cut off while drained changes neither.
    await response.body.dump({ limit: BODY_READ_LIMIT }).catch(() => undefined);
    const allow = firstHeader(response.headers, 'allow');
    return { status: response.statusCode, allow, date, sentAt, receivedAt };
  } catch (error) {
    throw networkError(context, error);
  }
}
