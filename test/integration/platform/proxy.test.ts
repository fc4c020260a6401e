import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { clientFor } from '../../support/platform/clientFor.js';
import {
  json,
  startScriptedServer,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

const UUID = '0b6f1a3e-7c1d-4c3e-9a59-4a7c2d1e8f00';

/** A tiny forward proxy: tunnels CONNECT and forwards absolute-form requests, counting both. */
async function startProxy() {
  const seen = { connects: [] as string[], forwards: [] as string[] };
  const sockets = new Set<Socket>();
  const server: Server = createServer((request, response) => {
    seen.forwards.push(request.url ?? '');
    const upstream = httpRequest(
      request.url ?? '',
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(upstream);
  });
  server.on('connect', (request, client: Socket, head: Buffer) => {
    seen.connects.push(request.url ?? '');
    const [host, port] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => socket.destroy());
      socket.on('close', () => sockets.delete(socket));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let server: ScriptedServer | undefined;
let proxy: Awaited<ReturnType<typeof startProxy>> | undefined;
afterEach(async () => {
  await server?.close();
  await proxy?.close();
});

describe('proxy settings come from the env given to the client', () => {
  it('sends through HTTP_PROXY', async () => {
    server = await startScriptedServer(json(200, { _id: UUID }));
    proxy = await startProxy();
    const target = new URL(server.url);
    const { client } = clientFor(server.url, 'B', { env: { HTTP_PROXY: proxy.url } });
    await expect(client.getPatient(UUID)).resolves.toEqual({ _id: UUID });
    const through = [...proxy.seen.connects, ...proxy.seen.forwards];
    expect(through).toHaveLength(1);
    expect(through[0]).toContain(target.host);
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('goes direct for a host in NO_PROXY', async () => {
    server = await startScriptedServer(json(200, { _id: UUID }));
    proxy = await startProxy();
    const { client } = clientFor(server.url, 'B', {
      env: { HTTP_PROXY: proxy.url, NO_PROXY: 'example.org, 127.0.0.1' },
    });
    await expect(client.getPatient(UUID)).resolves.toEqual({ _id: UUID });
    expect(proxy.seen.connects).toEqual([]);
    expect(proxy.seen.forwards).toEqual([]);
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('ignores the process environment: no env given, no proxy', async () => {
    server = await startScriptedServer(json(200, { _id: UUID }));
    proxy = await startProxy();
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = proxy.url;
    try {
      const { client } = clientFor(server.url, 'B');
      await client.getPatient(UUID);
      await client.close();
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
    expect(proxy.seen.connects).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});
