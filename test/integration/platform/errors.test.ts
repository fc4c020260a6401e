import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PermanentError, TransientError } from '../../../src/shared/errors.js';
import { API_KEY, clientFor, collect, rejection } from '../../support/platform/clientFor.js';
import {
  cutAfter,
  json,
  startScriptedServer,
  text,
  type Handler,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

const UUID = '0b6f1a3e-7c1d-4c3e-9a59-4a7c2d1e8f00';
const noRetry = { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } };

/** An error body that echoes the request's key, as a careless platform might. */
const echoingKey =
  (status: number): Handler =>
  (request, response) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({ error: 'rejected', key: request.headers['service-api-key'] }) +
        ' '.repeat(2000),
    );
  };

let server: ScriptedServer | undefined;
afterEach(async () => server?.close());

describe('every request', () => {
  it('carries the service-api-key header', async () => {
    server = await startScriptedServer(json(200, { _id: UUID }));
    const { client } = clientFor(server.url);
    await client.getPatient(UUID);
    expect(server.requests[0]?.headers['service-api-key']).toBe(API_KEY);
    await client.close();
  });
});

describe('status classification', () => {
  it.each([400, 401, 403, 404, 409, 422])('HTTP %i is permanent', async (status) => {
    server = await startScriptedServer(echoingKey(status));
    const { client } = clientFor(server.url);
    const error = await rejection(client.patchSingleOrder(UUID, { status: 1 }));
    expect(error).toBeInstanceOf(PermanentError);
    const permanent = error as PermanentError;
    expect(permanent.code).toBe(`HTTP_${status}`);
    expect(permanent.status).toBe(status);
    expect(permanent.resource).toBe('singleOrder');
    expect(permanent.id).toBe(UUID);
    expect(permanent.message).toContain(`PATCH /singleOrder/{id} (singleOrder ${UUID})`);
    expect(permanent.bodyExcerpt).toContain('"key":"***"');
    expect(permanent.bodyExcerpt?.length).toBeLessThanOrEqual(500);
    expect(JSON.stringify({ ...permanent, message: permanent.message })).not.toContain(API_KEY);
    await client.close();
  });

  it.each([408, 429, 500, 502, 503, 504])('HTTP %i is transient', async (status) => {
    server = await startScriptedServer(echoingKey(status));
    const { client } = clientFor(server.url);
    const error = await rejection(client.patchSingleOrder(UUID, { status: 1 }));
    expect(error).toBeInstanceOf(TransientError);
    const transient = error as TransientError;
    expect(transient.code).toBe(`HTTP_${status}`);
    expect(transient.status).toBe(status);
    expect(transient.bodyExcerpt).not.toContain(API_KEY);
    expect(transient.message).not.toContain(API_KEY);
    await client.close();
  });

  it('429 carries Retry-After as milliseconds', async () => {
    server = await startScriptedServer(text(429, 'slow down', { 'retry-after': '7' }));
    const { client } = clientFor(server.url);
    const error = await rejection(client.patchDirectOrder(UUID, { salesId: 'S-1' }));
    expect((error as TransientError).retryAfterMs).toBe(7000);
    await client.close();
  });
});

describe('bodies that are not the promised JSON', () => {
  it('a single record that is not JSON is permanent', async () => {
    server = await startScriptedServer(text(200, '<html>maintenance</html>'));
    const { client } = clientFor(server.url);
    const error = await rejection(client.getArticle('A-100'));
    expect(error).toBeInstanceOf(PermanentError);
    expect((error as PermanentError).code).toBe('BAD_BODY');
    expect((error as PermanentError).bodyExcerpt).toBe('<html>maintenance</html>');
    await client.close();
  });

  it('a list body that is an object is permanent', async () => {
    server = await startScriptedServer(json(200, { items: [] }));
    const { client } = clientFor(server.url);
    const error = await rejection(collect(client.listPatients()));
    expect((error as PermanentError).code).toBe('BAD_BODY');
    expect((error as Error).message).toContain('the body is not a JSON array');
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('a list body with a syntax error is permanent, its excerpt from where it goes wrong', async () => {
    server = await startScriptedServer(text(200, '[{"a":1} oops]'));
    const { client } = clientFor(server.url);
    const error = await rejection(collect(client.listPatients()));
    expect((error as PermanentError).code).toBe('BAD_BODY');
    expect((error as Error).message).toContain('the answer was not valid JSON at byte 9');
    expect((error as PermanentError).bodyExcerpt).toBe('{"a":1} oops');
    await client.close();
  });
});

describe('network failures are transient', () => {
  it('a refused connection', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const { client } = clientFor(`http://127.0.0.1:${port}`, 'B', noRetry);
    const error = await rejection(client.getPatient(UUID));
    expect(error).toBeInstanceOf(TransientError);
    expect((error as Error).message).toContain('ECONNREFUSED');
    expect((error as Error).message).toContain('check platform.baseUrl');
    await client.close();
  });

  it('a connection destroyed before the answer', async () => {
    server = await startScriptedServer((request) => {
      request.socket.destroy();
    });
    const { client } = clientFor(server.url, 'B', noRetry);
    const error = await rejection(client.createPatient({ lastName: 'x' }));
    expect(error).toBeInstanceOf(TransientError);
    expect((error as TransientError).code).toBe('NETWORK');
    await client.close();
  });

  it('a socket closed in the middle of a list', async () => {
    server = await startScriptedServer(cutAfter('[{"_id":"1"},{"_id":"2"},{"_id"'));
    const { client } = clientFor(server.url, 'B', noRetry);
    const error = await rejection(collect(client.listPatients()));
    expect(error).toBeInstanceOf(TransientError);
    await client.close();
  });

  it('headers slower than timeoutMs', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server = await startScriptedServer(async (_request, response) => {
      await held;
      response.end('{}');
    });
    const { client } = clientFor(server.url, 'B', { ...noRetry, timeoutMs: 200 });
    const error = await rejection(client.getPatient(UUID));
    release();
    expect(error).toBeInstanceOf(TransientError);
    expect((error as Error).message).toContain('UND_ERR_HEADERS_TIMEOUT');
    expect((error as Error).message).toContain('platform.timeoutMs');
    await client.close();
  });
});
