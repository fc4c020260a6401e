/**
 * One HTTP request to the daemon's endpoint on a connection of its own (no agent, no keep-alive),
 * bounded in time: a request that waits for a free connection slot shows as slow or unanswered,
 * never hidden behind a socket an agent kept open from before.
 */
import { request } from 'node:http';

/** The end of one request: its status, or why there was none, and how long it took. */
export type Outcome =
  { ms: number; status: number; bytes: number } | { ms: number; failure: string };

export interface Call {
  port: number;
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: Buffer;
  timeoutMs: number;
}

export function answered(outcome: Outcome): outcome is Extract<Outcome, { status: number }> {
  return 'status' in outcome;
}

/** "202", or the failure ("timeout", "ECONNRESET", ...): how the outcomes are tallied. */
export function outcomeLabel(outcome: Outcome): string {
  return answered(outcome) ? String(outcome.status) : outcome.failure;
}

function failureName(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** Sends `call` and resolves (never rejects) once it was answered, failed or timed out. */
export function send(call: Call): Promise<Outcome> {
  const started = performance.now();
  return new Promise<Outcome>((resolve) => {
    let status: number | undefined;
    let bytes = 0;
    let timedOut = false;
    const finish = (failure?: string): void => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      // A status that came before the socket broke still counts as an answer (e.g. a 413
      // sent while the body was being written).
      resolve(
        status === undefined ? { ms, failure: failure ?? 'no answer' } : { ms, status, bytes },
      );
    };
    const req = request({
      host: '127.0.0.1',
      port: call.port,
      method: call.method,
      path: call.path,
      agent: false,
      headers: {
        connection: 'close',
        ...call.headers,
        ...(call.body === undefined ? {} : { 'content-length': String(call.body.length) }),
      },
    });
    const timer = setTimeout(() => {
      timedOut = true;
      req.destroy();
    }, call.timeoutMs);
    req.on('response', (response) => {
      status = response.statusCode ?? 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => finish());
      // A body cut short (time-out, reset) ends with 'close' alone on some node versions.
      response.on('error', () => finish());
      response.on('close', () => finish());
    });
    req.on('error', (error) => finish(timedOut ? 'timeout' : failureName(error)));
    req.end(call.body);
  });
}
