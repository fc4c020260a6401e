import { request, type Dispatcher } from 'undici';
import type { Clock } from '../shared/clock.js';
import { networkError, statusError } from './errors.js';
import type { PreparedRequest } from './prepare.js';
import { classifyStatus, parseRetryAfter } from './retryable.js';
import type { PlatformClock } from './skew.js';
import { firstHeader, readStart } from '../shared/httpResponse.js';

export interface Transport {
  baseUrl: URL;
  apiKey: string;
  dispatcher: Dispatcher;
  clock: Clock;
  platformClock: PlatformClock;
}

/** A 2xx answer whose body is still unread: the caller consumes or destroys it. */
export interface OpenResponse {
  status: number;
  contentType: string;
  body: Dispatcher.ResponseData['body'];
  /**
   * The answer says where it ends (Content-Length, chunked): a body that ends cleanly then came
   * whole. Without either, the connection's close ends it, so a cut looks like an end.
   */
  framed: boolean;
}

function isFramed(headers: Dispatcher.ResponseData['headers']): boolean {
  const encoding = firstHeader(headers, 'transfer-encoding') ?? '';
  return firstHeader(headers, 'content-length') !== undefined || /chunked/i.test(encoding);
}

/** The URL of `path` (below the base URL, query included). */
export function urlOf(transport: Transport, path: string): string {
  const base = transport.baseUrl.pathname.replace(/\/+$/, '');
  return `${transport.baseUrl.origin}${base}${path}`;
}

/**
 * One try of one prepared request. Watches the platform's `Date` header, and turns every
 * non-2xx answer and every network failure into a typed error.
 */
export async function open(
  transport: Transport,
  prepared: PreparedRequest,
  signal?: AbortSignal,
): Promise<OpenResponse> {
  const sentAt = transport.clock.now();
  prepared.context.sentAt = sentAt.getTime();
  let response: Dispatcher.ResponseData;
  try {
    response = await request(urlOf(transport, prepared.path), {
      dispatcher: transport.dispatcher,
      method: prepared.method,
      headers: {
        'service-api-key': transport.apiKey,
        accept: 'application/json',
        ...(prepared.body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: prepared.body ?? null,
      ...(signal === undefined ? {} : { signal }),
    });
  } catch (error) {
    throw networkError(prepared.context, error);
  }
  const receivedAt = transport.clock.now();
  transport.platformClock.observe(sentAt, receivedAt, firstHeader(response.headers, 'date'));
  const verdict = classifyStatus(response.statusCode);
  if (verdict === 'success') {
    const contentType = firstHeader(response.headers, 'content-type') ?? '';
    const framed = isFramed(response.headers);
    return { status: response.statusCode, contentType, body: response.body, framed };
  }
  const text = await readStart(response.body);
  // An HTTP date in Retry-After is on the platform's clock, so it is read against that clock.
  const retryAfterMs = parseRetryAfter(
    firstHeader(response.headers, 'retry-after'),
    transport.platformClock.platformNow(),
  );
  throw statusError(
    prepared.context,
    response.statusCode,
    verdict === 'transient',
    text,
    retryAfterMs,
  );
}
