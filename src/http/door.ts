import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { limitConnections } from './connectionBudget.js';
import { answerAndClose, parserRefusals } from './parserRefusals.js';
import type { Refusal, RefusalLog } from './refusals.js';
import type { RefusedConnections } from './refusing.js';

/** What the listening socket is opened with; the timeouts and the budget may change later. */
export interface DoorOptions {
  host: string;
  port: number;
  /** Headers and body of a request must arrive within this; a connection idle as long is closed. */
  requestTimeoutMs: number;
  /** A request's headers must arrive within this, so slow clients give their connection back soon. */
  headersTimeoutMs: number;
  /** Connections open at once; more are answered 503 and closed. */
  maxConnections: number;
}

/** An endpoint behind the door: its routes, and where the door's own refusals are told. */
export interface DoorRoute {
  handle(request: IncomingMessage, response: ServerResponse): void;
  refusals: RefusalLog;
}

/** The routes an endpoint has on the door: its requests under way, and when none is. */
export interface Admitted {
  /** Resolves once no request this route took is under way any more. */
  drained(): Promise<void>;
}

/**
 * The endpoint's listening socket, kept across reloads: each daemon's endpoint takes it over
 * (`admit`), so the port never refuses a connection while the daemon rebuilds itself. What
 * belongs to the connection rather than to a route lives here: the time-outs, the connection
 * budget, the HTTP parser's refusals, and which connections had a request refused.
 */
export interface Door {
  readonly url: string;
  readonly options: DoorOptions;
  /** Connections that had a request refused, whichever endpoint refused it. */
  readonly refused: RefusedConnections;
  /** From now on new requests go to `route`; those under way stay with the route they had. */
  admit(route: DoorRoute): Admitted;
  /** Takes a reload's time-outs and budget (the address stays: a new one needs a new door). */
  apply(options: DoorOptions): void;
  close(): Promise<void>;
}

/** The connection checks of Node's HTTP server, from the door's options. */
function applyTimeouts(server: ReturnType<typeof createServer>, options: DoorOptions): void {
  const timeout = options.requestTimeoutMs;
  server.requestTimeout = timeout;
  // Node refuses a header time-out longer than the request's.
  server.headersTimeout = Math.min(options.headersTimeoutMs, timeout);
  // Idle sockets are cut later than slow requests, so that those get their 408 first.
  server.setTimeout(2 * timeout);
}

/** Opens the door on `options.host` and `options.port`; rejects with Node's error when it cannot. */
export async function openDoor(given: DoorOptions): Promise<Door> {
  let options = given;
  const headersTimeout = Math.min(options.headersTimeoutMs, options.requestTimeoutMs);
  const server = createServer({
    // Node checks the request time-outs only this often (every 30 s unless told).
    connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeout / 4)),
    // Refused by the endpoint instead, where it is logged and counted (refusing.ts).
    requireHostHeader: false,
  });
  applyTimeouts(server, options);
  let current: (DoorRoute & { active: number; idle: (() => void)[] }) | undefined;
  // The door's own refusals are told to the endpoint it serves now.
  const tell = (refusal: Refusal) => current?.refusals.refused(refusal);
  const parser = parserRefusals(tell);
  server.on('clientError', (error: Error & { code?: string }, socket) =>
    parser.clientError(error, socket),
  );
  parser.listen(server);
  limitConnections(
    server,
    () => options.maxConnections,
    (socket) =>
      tell({
        status: 503,
        route: 'connection',
        reason: 'connection budget used up',
        client: socket.remoteAddress,
      }),
  );
  const serve = (request: IncomingMessage, response: ServerResponse) => {
    const route = current;
    if (route === undefined) {
      answerAndClose(request.socket, 503, 'the endpoint is starting; try again in a moment');
      return;
    }
    route.active += 1;
    response.on('close', () => {
      route.active -= 1;
      if (route.active === 0) for (const done of route.idle.splice(0)) done();
    });
    route.handle(request, response);
  };
  server.on('request', serve);
  // A client waiting for 100 Continue gets it only once its request passed the routes' checks.
  server.on('checkContinue', serve);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return {
    url: `http://${options.host}:${port}`,
    get options() {
      return options;
    },
    refused: new WeakSet(),
    admit(route) {
      const admitted = { ...route, active: 0, idle: [] as (() => void)[] };
      current = admitted;
      return {
        drained: () =>
          admitted.active === 0
            ? Promise.resolve()
            : new Promise<void>((resolve) => admitted.idle.push(resolve)),
      };
    },
    apply(next) {
      options = { ...next, host: options.host, port: options.port };
      applyTimeouts(server, options);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        // A client holding a request open past the time-outs keeps no stop waiting.
        setTimeout(() => server.closeAllConnections(), 2 * options.requestTimeoutMs).unref();
      }),
  };
}
