import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { INBOX_KINDS, type InboxKind } from '../erp/adapter.js';
import { isTransient } from '../shared/errors.js';
import type { Readiness } from './readiness.js';

export type InboundResult =
  | { status: 'accepted' | 'repeat'; id: number | string }
  | { status: 'invalid'; problems: string[] };

export interface HttpEndpointDeps {
  logger: Logger;
  /** Liveness: the process answers. Readiness: see readiness.ts. */
  readiness(): Readiness;
  metrics(): Promise<{ contentType: string; body: string }>;
  /**
   * Validates an ERP message and stores it durably; resolves only after the commit. The ERP's
   * `Idempotency-Key` header, when sent, makes a repeated request a no-op.
   */
  inbound(
    kind: InboxKind,
    body: unknown,
    idempotencyKey: string | undefined,
  ): InboundResult | Promise<InboundResult>;
}

export interface HttpEndpointOptions {
  host: string;
  port: number;
  /** Bearer token for POST /erp/<kind>; without one, inbound messages are refused. */
  token: string | undefined;
  bodyLimitBytes: number;
}

export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

function tokenMatches(header: string | undefined, token: string | undefined): boolean {
  if (token === undefined || header === undefined || !header.startsWith('Bearer ')) return false;
  const given = Buffer.from(header.slice('Bearer '.length));
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

function isInboxKind(kind: string): kind is InboxKind {
  return (INBOX_KINDS as readonly string[]).includes(kind);
}

function routes(app: FastifyInstance, options: HttpEndpointOptions, deps: HttpEndpointDeps): void {
  app.get('/healthz', () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    const result = deps.readiness();
    return reply.code(result.ready ? 200 : 503).send(result);
  });
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await deps.metrics();
    return reply.type(contentType).send(body);
  });
  app.post(
    '/erp/:kind',
    async (request: FastifyRequest<{ Params: { kind: string } }>, reply: FastifyReply) => {
      if (!tokenMatches(request.headers.authorization, options.token)) {
        const message =
          options.token === undefined
            ? 'inbound messages are off: set http.token (or http.tokenFile) in the config'
            : 'a valid "Authorization: Bearer <http.token>" header is required';
        return reply.code(401).send({ error: 'Unauthorized', message });
      }
      const { kind } = request.params;
      if (!isInboxKind(kind)) {
        return reply.code(404).send({
          error: 'Not Found',
          message: `unknown kind "${kind}"; kinds: ${INBOX_KINDS.join(', ')}`,
        });
      }
      const key = request.headers['idempotency-key'];
      const result = await deps.inbound(
        kind,
        request.body,
        typeof key === 'string' ? key : undefined,
      );
      if (result.status === 'invalid') {
        return reply.code(400).send({
          error: 'Bad Request',
          message: `the ${kind} message is not valid`,
          problems: result.problems,
        });
      }
      return reply.code(202).send({ id: result.id, repeat: result.status === 'repeat' });
    },
  );
}

/** The daemon's own HTTP endpoint: health, readiness, metrics and the ERP's inbound messages. */
export async function startHttpEndpoint(
  options: HttpEndpointOptions,
  deps: HttpEndpointDeps,
): Promise<HttpEndpoint> {
  const app = Fastify({ logger: false, bodyLimit: options.bodyLimitBytes });
  app.setErrorHandler((error: { statusCode?: number; message: string }, _request, reply) => {
    // A transient failure (the database's disk is full) asks the ERP to send again later.
    const status = error.statusCode ?? (isTransient(error) ? 503 : 500);
    if (status >= 500) deps.logger.error({ err: error }, 'http endpoint error');
    if (status === 503) void reply.header('retry-after', '60');
    const message =
      status === 413 ? `the body is larger than ${options.bodyLimitBytes} bytes` : error.message;
    const label =
      status === 503
        ? 'Service Unavailable'
        : status >= 500
          ? 'Internal Server Error'
          : 'Bad Request';
    return reply.code(status).send({ error: label, message });
  });
  routes(app, options, deps);
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return { url: `http://${options.host}:${port}`, close: () => app.close() };
}
