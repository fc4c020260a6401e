import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Refusal } from './refusals.js';

/** How long a refused connection may take to read its answer before it is cut. */
const LINGER_MS = 2_000;

/**
 * A whole answer written on the socket itself, for refusals made before any route (the parser's,
 * a connection beyond the budget): JSON as every answer of the endpoint, then the connection
 * closes once the answer is out (`linger`: once the client closed it too, or LINGER_MS passed,
 * for a client still sending whose unread bytes would cut the answer short).
 */
export function answerAndClose(
  socket: Duplex,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  linger = false,
): void {
  socket.on('error', () => undefined);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify({ error: STATUS_CODES[status], message });
  const lines = Object.entries({
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    ...headers,
    Connection: 'close',
  }).map(([name, value]) => `${name}: ${value}\r\n`);
  const answer = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n${lines.join('')}\r\n${body}`;
  if (linger) {
    socket.end(answer);
    setTimeout(() => socket.destroy(), LINGER_MS).unref();
  } else socket.end(answer, () => socket.destroy());
}

/** Codes of a client that went away, mid-request or not: nothing was refused. */
const GONE = new Set(['ECONNRESET', 'EPIPE', 'HPE_CLOSED_CONNECTION', 'HPE_INVALID_EOF_STATE']);

/** The parser's refusals by the code Node gives them: what is answered, and why in words. */
const REFUSALS: Record<string, { status: number; reason: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, reason: 'request not sent in time' },
  HPE_HEADER_OVERFLOW: { status: 431, reason: 'headers too large' },
  HPE_UNEXPECTED_CONTENT_LENGTH: { status: 400, reason: 'two Content-Lengths' },
  HPE_INVALID_TRANSFER_ENCODING: {
    status: 400,
    reason: 'Transfer-Encoding beside Content-Length, or not chunked',
  },
};

/** What the parser's refusal is, by the code Node gives it; undefined when it is none. */
function refusalOf(code: string | undefined): { status: number; reason: string } | undefined {
  if (code === undefined || GONE.has(code)) return undefined;
  return REFUSALS[code] ?? { status: 400, reason: `malformed request (${code})` };
}

const MESSAGES: Record<number, string> = {
  400: 'the request is not well-formed HTTP/1.1',
  405: 'this endpoint is no proxy: CONNECT is not taken',
  408: 'the request was not sent in time (http.headersTimeoutMs, http.requestTimeoutMs)',
  431: 'the request headers are too large',
};

/**
 * What the HTTP parser refuses before any route sees the request (Content-Length with
 * Transfer-Encoding, two Content-Lengths, headers too large or too slow, a CONNECT): answered,
 * the connection closed, and each refusal told (`tell`) to be logged and counted like the routes'.
 * `clientError` is the server's handler of its parser's errors (fastify's `clientErrorHandler`).
 */
export function parserRefusals(tell: (refusal: Refusal) => void) {
  // A connection answered once: what its parser says after (the client hanging up) is no news.
  const answered = new WeakSet<Duplex>();
  const refuse = (socket: Duplex, refusal: { status: number; reason: string }, headers = {}) => {
    answered.add(socket);
    const client = (socket as { remoteAddress?: string }).remoteAddress;
    tell({ ...refusal, route: 'parser', client });
    answerAndClose(socket, refusal.status, MESSAGES[refusal.status] ?? refusal.reason, headers);
  };
  return {
    clientError(error: Error & { code?: string }, socket: Duplex): void {
      const refusal = answered.has(socket) ? undefined : refusalOf(error.code);
      if (refusal === undefined) socket.destroy();
      else refuse(socket, refusal);
    },
    /** Answers a CONNECT (Node drops its connection without a word when none listens). */
    listen(server: Server): void {
      server.on('connect', (_request, socket: Duplex) =>
        refuse(socket, { status: 405, reason: 'CONNECT' }, { Allow: 'GET, POST' }),
      );
    },
  };
}
