import { Agent, request, type Dispatcher } from 'undici';
import type { ErpAnswer } from './outcome.js';
import { firstHeader, readStart } from '../../../shared/httpResponse.js';

/**
 * One keep-alive agent for every ERP request, connecting directly: the ERP usually sits on the
 * customer's own network, where a proxy configured for the platform would be in the way.
 */
export function createErpAgent(timeoutMs: number): Agent {
  return new Agent({
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    connect: { timeout: timeoutMs },
  });
}

export interface ErpRequest {
  method: 'POST' | 'PUT';
  url: URL;
  headers: Record<string, string>;
  body: string;
}

async function discard(body: Dispatcher.ResponseData['body']): Promise<void> {
  try {
    await body.dump();
  } catch {
    // The status already says the ERP has the record; a body cut short changes nothing.
  }
}

/** Sends one request; a network failure or time-out is thrown as undici raised it. */
export async function sendToErp(
  dispatcher: Dispatcher,
  erpRequest: ErpRequest,
): Promise<ErpAnswer> {
  const response = await request(erpRequest.url, {
    dispatcher,
    method: erpRequest.method,
    headers: erpRequest.headers,
    body: erpRequest.body,
  });
  const success = response.statusCode >= 200 && response.statusCode < 300;
  const body = success ? '' : await readStart(response.body);
  if (success) await discard(response.body);
  return {
    status: response.statusCode,
    retryAfter: firstHeader(response.headers, 'retry-after'),
    date: firstHeader(response.headers, 'date'),
    body,
  };
}

/** The status of a HEAD request to `url` (with `headers`, say the credentials), the body left unread. */
export async function askHead(
  dispatcher: Dispatcher,
  url: string,
  headers: Record<string, string> = {},
): Promise<number> {
  const response = await request(url, { dispatcher, method: 'HEAD', headers });
  await discard(response.body);
  return response.statusCode;
}
