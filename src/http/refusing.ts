import { STATUS_CODES } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RefusalLog } from './refusals.js';

export type Refuse = (
  reply: FastifyReply,
  status: number,
  reason: string,
  message: string,
  extra?: Record<string, unknown>,
  route?: string,
) => FastifyReply;

/** Connections that had a request refused: they close after the answer, and take no more. */
export type RefusedConnections = WeakSet<object>;

/**
 * Answers a refusal, logs and counts it, and closes the connection after the answer: a request
 * the client pipelined behind the refused one is neither answered nor acted on (an ERP that
 * pipelines sends it again on a new connection, where it gets its own answer).
 */
export function refuser(refusals: RefusalLog, refused: RefusedConnections): Refuse {
  return (reply, status, reason, message, extra = {}, route) => {
    const { request } = reply;
    refusals.refused({
      status,
      route: route ?? request.routeOptions.url ?? 'unmatched',
      reason,
      client: request.ip,
    });
    refused.add(request.raw.socket);
    return reply
      .code(status)
      .header('connection', 'close')
      .send({ error: STATUS_CODES[status], message, ...extra });
  };
}

/**
 * Before anything else looks at a request: one pipelined behind a refused request on the same
 * connection is dropped with the connection, unread and unanswered; an HTTP/1.1 request without
 * a Host header is refused as the parser's refusals are (Node's own check answers without a
 * word to the log or the metrics, so it is off: `requireHostHeader: false`).
 */
export function guardConnections(
  app: FastifyInstance,
  refuse: Refuse,
  refused: RefusedConnections,
) {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const { socket } = request.raw;
    if (refused.has(socket)) {
      reply.hijack();
      socket.destroy();
      return reply;
    }
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      return refuse(
        reply,
        400,
        'no Host header',
        'HTTP/1.1 requests carry a Host header',
        {},
        'parser',
      );
    }
    return undefined;
  });
}
