import { Agent, request, type Dispatcher } from 'undici';
import type { ErpAnswer } from './outcome.js';

/** Enough of an error body for the excerpt; the rest is thrown away with the socket. */
const ERROR_BODY_LIMIT = 16 * 1024;

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

function header(headers: Dispatcher.ResponseData['headers'], name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

async function readStart(body: Dispatcher.ResponseData['body']): Promise<string> {
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
    retryAfter: header(response.headers, 'retry-after'),
    date: header(response.headers, 'date'),
    body,
  };
}
