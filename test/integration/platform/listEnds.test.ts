import { createServer as createTcpServer, type AddressInfo, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PermanentError, TransientError } from '../../../src/shared/errors.js';
import { clientFor, collect, rejection } from '../../support/platform/clientFor.js';
import {
  cutAfter,
  startScriptedServer,
  text,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

const noRetry = { retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } };

let server: ScriptedServer | undefined;
let raw: Server | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
  await new Promise<void>((resolve) => (raw ? raw.close(() => resolve()) : resolve()));
  raw = undefined;
});

/** A server that writes `answer` as the whole response on each connection and closes it. */
async function rawServer(answer: string): Promise<string> {
  raw = createTcpServer((socket) => {
    socket.once('data', () => socket.end(answer));
  });
  await new Promise<void>((resolve) => raw?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(raw.address() as AddressInfo).port}`;
}

async function listError(url: string): Promise<Error> {
  const { client } = clientFor(url, 'B', noRetry);
  const error = await rejection(collect(client.listPatients()));
  await client.close();
  return error as Error;
}

describe('a list that is not valid JSON is told from one that ended early', () => {
  it('an answer that came whole (Content-Length) but stops inside the list: not valid JSON at its last byte', async () => {
    server = await startScriptedServer(text(200, '[{"a":1},{"b":'));
    const error = await listError(server.url);
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toContain('GET /patient (patient)');
    expect(error.message).toContain('the answer was not valid JSON at byte 14');
    expect(error.message).not.toContain('ended early');
  });

  it('a broken item: not valid JSON at the byte that is wrong, counted in bytes, not characters', async () => {
    server = await startScriptedServer(text(200, '[{"_id":"ä"},{"_id": x}]'));
    const error = await listError(server.url);
    expect(error).toBeInstanceOf(PermanentError);
    // "ä" is two bytes: the x stands at byte 22 of the answer.
    expect(error.message).toContain('the answer was not valid JSON at byte 22');
    expect((error as PermanentError).bodyExcerpt).toBe('{"_id": x}');
  });

  it('a connection cut in the middle of a chunked answer: the list ended early, after its bytes', async () => {
    server = await startScriptedServer(cutAfter('[{"a":1},{"b":'));
    const error = await listError(server.url);
    expect(error).toBeInstanceOf(TransientError);
    expect((error as TransientError).code).toBe('TRUNCATED_BODY');
    expect(error.message).toContain('GET /patient (patient)');
    expect(error.message).toContain('the list ended early (connection closed after 14 bytes)');
    expect(error.message).not.toContain('not valid JSON');
  });

  it('an answer shorter than its Content-Length: the list ended early', async () => {
    const body = '[{"a":1},{"b":';
    const head = `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length + 20}\r\n\r\n`;
    const error = await listError(await rawServer(head + body));
    expect(error).toBeInstanceOf(TransientError);
    expect(error.message).toContain('the list ended early (connection closed after 14 bytes)');
  });

  it('an answer ended by the connection alone (no length, not chunked) that stops inside the list: ended early', async () => {
    const head = 'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n';
    const error = await listError(await rawServer(`${head}[{"a":1},{"b":`));
    expect(error).toBeInstanceOf(TransientError);
    expect(error.message).toContain('the list ended early (connection closed after 14 bytes)');
  });
});
