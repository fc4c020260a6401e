import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpEndpoint, HttpEndpointOptions } from '../../../src/http/server.js';
import { startTestEndpoint } from '../../support/endpoint.js';
import { withinBound } from '../../support/eventually.js';

/** A generous bound for what should happen at once; only a hang reaches it. */
const BOUND_MS = 20_000;

let endpoint: HttpEndpoint | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await endpoint?.close();
  endpoint = undefined;
});

async function start(options: Partial<HttpEndpointOptions>): Promise<{ port: number }> {
  endpoint = await startTestEndpoint(options);
  return { port: Number(new URL(endpoint.url).port) };
}

/** A connection that sends the head of a POST announcing 1000 bytes, and `bodyStart` of them. */
function slowPost(port: number, token: string | undefined, bodyStart = '') {
  const socket = connect({ host: '127.0.0.1', port });
  sockets.push(socket);
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<string>((resolve) => socket.on('close', () => resolve(answer)));
  socket.write(
    'POST /erp/orderStatus HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      'Content-Type: application/json\r\nContent-Length: 1000\r\n' +
      (token === undefined ? '' : `Authorization: Bearer ${token}\r\n`) +
      `\r\n${bodyStart}`,
  );
  return closed;
}

describe('the daemon endpoint under slow and many connections', () => {
  it('answers 300 slow requests without the token at once with 401, without waiting for their bodies', async () => {
    const { port } = await start({ maxConnections: 1_000 });
    const answers = await withinBound(
      Promise.all(Array.from({ length: 300 }, () => slowPost(port, undefined))),
      'answering 300 requests without a token',
      BOUND_MS,
    );
    expect(answers.every((answer) => answer.startsWith('HTTP/1.1 401'))).toBe(true);
  });

  it('answers 503 to connections beyond maxConnections and ends a body that does not arrive in requestTimeoutMs', async () => {
    const { port } = await start({ maxConnections: 5, requestTimeoutMs: 1_000 });
    const slow = Array.from({ length: 5 }, () => slowPost(port, 'erp-secret', '{"order'));
    // The server takes connections in the order they came, so the sixth is the one beyond.
    const extra = await withinBound(
      slowPost(port, 'erp-secret'),
      'closing the sixth connection',
      BOUND_MS,
    );
    expect(extra).toMatch(/^HTTP\/1.1 503 Service Unavailable\r\n/);
    expect(extra).toMatch(/\r\nRetry-After: 5\r\n/);
    const timedOut = await withinBound(Promise.all(slow), 'ending the slow bodies', BOUND_MS);
    expect(timedOut.every((answer) => answer.startsWith('HTTP/1.1 408'))).toBe(true);
    const after = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(after.status).toBe(200);
  });
});
