import { request, type Dispatcher } from 'undici';
import type { Clock } from '../shared/clock.js';
import { networkError, statusError } from './errors.js';
import type { PreparedRequest } from './prepare.js';
import { classifyStatus, parseRetryAfter } from './retryable.js';
import type { PlatformClock } from './skew.js';

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
}

const ERROR_BODY_LIMIT = 16 * 1024;

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The start of an error body, for the excerpt; the rest is thrown away with the socket. */
async function readStart(body: OpenResponse['body']): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      chunks.push(buffer);
      size += buffer.length;
      if (size >= ERROR_BODY_LIMIT) break;
    }
  } catch {
    // An error body cut short is still worth its first bytes.
  } finally {
    body.destroy();
  }
  return Buffer.concat(chunks).toString('utf8');
}

function urlOf(transport: Transport, path: string): string {
  const base = transport.baseUrl.pathname.replace(/\/+$/, '');
  return `${transport.baseUrl.origin}${base}${path}`;
}

/**
 * One try of one prepared request. Watches the platform's `Date` header, and turns every
 * non-2xx answer and every network failure into a typed error.
 */
export async function open(transport: Transport, prepared: PreparedRequest): Promise<OpenResponse> {
  const sentAt = transport.clock.now();
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
    });
  } catch (error) {
    throw networkError(prepared.context, error);
  }
  const receivedAt = transport.clock.now();
  transport.platformClock.observe(sentAt, receivedAt, header(response.headers, 'date'));
  const verdict = classifyStatus(response.statusCode);
  if (verdict === 'success') {
    const contentType = header(response.headers, 'content-type') ?? '';
    return { status: response.statusCode, contentType, body: response.body };
  }
  const text = await readStart(response.body);
  // An HTTP date in Retry-After is on the platform's clock, so it is read against that clock.
  const retryAfterMs = parseRetryAfter(
    header(response.headers, 'retry-after'),
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
