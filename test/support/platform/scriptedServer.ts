import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (
  request: IncomingMessage,
  response: ServerResponse,
  seen: SeenRequest,
) => void | Promise<void>;

/**
 * A real HTTP server on a loopback port whose answers the test scripts: handlers are used in
 * order, the last one for every request after that. It records what it was asked and the
 * sockets it saw opened and closed.
 */
export interface ScriptedServer {
  url: string;
  requests: SeenRequest[];
  openSockets(): number;
  socketsClosed(): number;
  close(): Promise<void>;
}

export async function startScriptedServer(...handlers: Handler[]): Promise<ScriptedServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  let closed = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const seen: SeenRequest = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      const handler = handlers[Math.min(requests.length, handlers.length) - 1];
      if (handler === undefined) throw new Error('startScriptedServer needs a handler');
      void Promise.resolve(handler(request, response, seen)).catch((error: unknown) => {
        response.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => {
      sockets.delete(socket);
      closed++;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    openSockets: () => sockets.size,
    socketsClosed: () => closed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Answers with JSON and the given status and headers. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
}

/** Answers with a raw text body. */
export function text(status: number, body: string, headers: Record<string, string> = {}): Handler {
  return (_request, response) => {
    response.writeHead(status, headers);
    response.end(body);
  };
}

/**
 * Sends the first bytes of a list, then cuts the connection (once `when` resolves, if given):
 * the bytes are handed to the system before the cut, which sends them ahead of the close.
 */
export function cutAfter(start: string, when?: Promise<void>): Handler {
  return async (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    await new Promise<void>((resolve) => response.write(start, () => resolve()));
    await when;
    response.socket?.destroy();
  };
}

/** Waits until `release` resolves before anything is sent. */
export function waitFor(release: Promise<void>, then: Handler): Handler {
  return async (request, response, seen) => {
    await release;
    await then(request, response, seen);
  };
}
