import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { INBOX_KINDS, type InboxKind } from '../erp/adapter.js';
import { isTransient } from '../shared/errors.js';
import { nestingProblem } from '../shared/jsonDepth.js';
import type { CheckResult, Readiness } from './readiness.js';

export type InboundResult =
  | { status: 'accepted' | 'repeat'; id: number | string }
  | { status: 'invalid'; problems: string[] }
  /** The Idempotency-Key was used before for a message with another body. */
  | { status: 'conflict'; id: string };

export interface HttpEndpointDeps {
  logger: Logger;
  /** Liveness: the process runs and its database answers. */
  liveness(): CheckResult;
  /** Whether the daemon can do its job now: platform, ERP, pulls, deliveries (readiness.ts). */
  readiness(): Readiness;
  /** Whether POST /erp/<kind> can take messages; a platform outage does not stop that. */
  inboundReadiness(): Readiness;
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
  /** Headers and body of a request must arrive within this; a connection idle as long is closed. */
  requestTimeoutMs: number;
  /** Connections open at once; more are closed at once, so that slow clients cannot use up file descriptors. */
  maxConnections: number;
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

/** Refuses a request to /erp/ without the token before its body is read. */
function requireToken(app: FastifyInstance, token: string | undefined): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/erp/')) return;
    if (tokenMatches(request.headers.authorization, token)) return;
    const message =
      token === undefined
        ? 'inbound messages are off: set http.token (or http.tokenFile) in the config'
        : 'a valid "Authorization: Bearer <http.token>" header is required';
    // The body is not read: close the connection rather than wait for it.
    return reply.code(401).header('connection', 'close').send({ error: 'Unauthorized', message });
  });
}

/** JSON bodies as fastify parses them, but refused with 400 when they nest too deep. */
function limitNesting(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const problem = nestingProblem(text);
    if (problem === undefined) return parse(request, text, done);
    done(Object.assign(new Error(`the body is refused: ${problem}`), { statusCode: 400 }));
  });
}

function routes(app: FastifyInstance, deps: HttpEndpointDeps): void {
  app.get('/healthz', async (_request, reply) => {
    const live = deps.liveness();
    if (live.ok) return reply.send({ status: 'ok' });
    return reply.code(503).send({ status: 'down', problem: `database: ${live.problem ?? ''}` });
  });
  app.get('/readyz', async (_request, reply) => {
    const result = deps.readiness();
    return reply.code(result.ready ? 200 : 503).send(result);
  });
  app.get('/readyz/inbound', async (_request, reply) => {
    const result = deps.inboundReadiness();
    return reply.code(result.ready ? 200 : 503).send(result);
  });
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await deps.metrics();
    return reply.type(contentType).send(body);
  });
  app.post(
    '/erp/:kind',
    async (request: FastifyRequest<{ Params: { kind: string } }>, reply: FastifyReply) => {
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
      if (result.status === 'conflict') {
        return reply.code(409).send({
          error: 'Conflict',
          message: `Idempotency-Key "${result.id}" was used before for a ${kind} message with another body; send a new key for a new message, or the same body to repeat one`,
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
  const timeout = options.requestTimeoutMs;
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimitBytes,
    requestTimeout: timeout,
    // Idle sockets are cut later than slow requests, so that those get their 408 first.
    connectionTimeout: 2 * timeout,
    http: {
      headersTimeout: timeout,
      // Node checks the request time-outs only this often (every 30 s unless told).
      connectionsCheckingInterval: Math.min(1_000, Math.ceil(timeout / 4)),
    },
  });
  app.server.maxConnections = options.maxConnections;
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
  requireToken(app, options.token);
  limitNesting(app);
  routes(app, deps);
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  return { url: `http://${options.host}:${port}`, close: () => app.close() };
}
