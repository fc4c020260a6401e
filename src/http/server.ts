/**
 * Interface: the daemon's own endpoint. Health, readiness and metrics, and the ERP's door `POST
 * /erp/<kind>`, access decided by the route matched.
 */
import { createServer, STATUS_CODES } from 'node:http';
import Fastify, {
  type FastifyInstance,
  type FastifyPluginCallback,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import type { Logger } from 'pino';
import {
  isPushBackKind,
  PUSH_BACK_KIND_NAMES,
  type InboundResult,
  type PushBackKindName,
} from '../pushback/index.js';
import { isTransient } from '../shared/errors.js';
import { PUBLIC, tokenMatches, type RouteAccess } from './access.js';
import { openDoor, type Door, type DoorOptions, type DoorRoute } from './door.js';
import { idempotencyKeyOf } from './idempotencyKey.js';
import { BodyRefused, checkedJsonBodies } from './jsonBody.js';
import { publicReadiness, type CheckResult, type Readiness } from './readiness.js';
import { RefusalLog } from './refusals.js';
import { guardConnections, refuser, type Refuse } from './refusing.js';

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
    kind: PushBackKindName,
    body: unknown,
    idempotencyKey: string | undefined,
  ): InboundResult | Promise<InboundResult>;
  /** Counts a refused request by status and route (a metric); each is logged here too. */
  refused?(status: number, route: string): void;
  /** Milliseconds since the epoch; the refusal log's minute is measured with it. */
  now?(): number;
  /**
   * The operator's console (src/console/), mounted under /console when `console.enabled`: a
   * fastify plugin whose routes decide their own access (RouteAccess `own`).
   */
  console?: FastifyPluginCallback;
}

/** The door's options (address, time-outs, connection budget), and the routes'. */
export interface HttpEndpointOptions extends DoorOptions {
  /** Bearer token for every route that is not public; without one, those are refused. */
  token: string | undefined;
  bodyLimitBytes: number;
}

export interface HttpEndpoint {
  url: string;
  close(): Promise<void>;
}

/**
 * Access by the route the router matched, never by the raw URL (which may spell a path in
 * other ways, or be absolute): a route is public only when its config says so, and every other
 * request, matched or not, needs the token. A client that waits for `100 Continue` before it
 * sends its body gets it only once the token was checked.
 */
function requireToken(app: FastifyInstance, token: string | undefined, refuse: Refuse): void {
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const access = request.routeOptions.config as RouteAccess | undefined;
    if (access?.own === true) return;
    if (access?.public === true || tokenMatches(request.headers.authorization, token)) {
      if (request.headers.expect?.toLowerCase() === '100-continue') reply.raw.writeContinue();
      return;
    }
    const message =
      token === undefined
        ? 'this route is off: set http.token (or http.tokenFile) in the config'
        : 'a valid "Authorization: Bearer <http.token>" header is required';
    // The body is not read: the connection closes rather than wait for it (refuser).
    void reply.header('www-authenticate', 'Bearer');
    return refuse(
      reply,
      401,
      token === undefined ? 'no token configured' : 'no valid token',
      message,
    );
  });
}

/** The health routes; readiness changes are the daemon's to log (app/readinessLog.ts). */
function healthRoutes(app: FastifyInstance, deps: HttpEndpointDeps, token: string | undefined) {
  const readyRoute =
    (readiness: () => Readiness) => async (request: FastifyRequest, reply: FastifyReply) => {
      const result = readiness();
      const shown = tokenMatches(request.headers.authorization, token)
        ? result
        : publicReadiness(result);
      return reply.code(result.ready ? 200 : 503).send(shown);
    };
  app.get('/healthz', PUBLIC, async (_request, reply) => {
    const live = deps.liveness();
    if (live.ok) return reply.send({ status: 'ok' });
    return reply.code(503).send({ status: 'down', problem: `database: ${live.problem ?? ''}` });
  });
  app.get(
    '/readyz',
    PUBLIC,
    readyRoute(() => deps.readiness()),
  );
  app.get(
    '/readyz/inbound',
    PUBLIC,
    readyRoute(() => deps.inboundReadiness()),
  );
  app.get('/metrics', PUBLIC, async (_request, reply) => {
    const { contentType, body } = await deps.metrics();
    return reply.type(contentType).send(body);
  });
}

function inboundRoute(app: FastifyInstance, deps: HttpEndpointDeps, refuse: Refuse): void {
  app.post(
    '/erp/:kind',
    async (request: FastifyRequest<{ Params: { kind: string } }>, reply: FastifyReply) => {
      const { kind } = request.params;
      if (!isPushBackKind(kind)) {
        const kinds = PUSH_BACK_KIND_NAMES.join(', ');
        return refuse(reply, 404, 'unknown kind', `unknown kind; kinds: ${kinds}`);
      }
      const key = idempotencyKeyOf(request.raw.headersDistinct['idempotency-key']);
      if (!key.ok) return refuse(reply, 400, 'bad Idempotency-Key', key.problem);
      const result = await deps.inbound(kind, request.body, key.key);
      if (result.status === 'invalid') {
        return refuse(reply, 400, 'message not valid', `the ${kind} message is not valid`, {
          problems: result.problems,
        });
      }
      if (result.status === 'conflict') {
        return refuse(
          reply,
          409,
          'Idempotency-Key used for another body',
          `Idempotency-Key "${result.id}" was used before for a ${kind} message with another body; send a new key for a new message, or the same message to repeat one`,
        );
      }
      if (result.status === 'overtaken') {
        return refuse(
          reply,
          409,
          'message overtaken',
          `the ${kind} message is ${result.reason}; send it with a newer erpTimestamp if it is meant to go back`,
        );
      }
      return reply.code(202).send({ id: result.id, repeat: result.status === 'repeat' });
    },
  );
}

/** Why fastify refused a request, in words that hold none of the request's content. */
function reasonOf(error: { code?: string }, status: number): string {
  if (error instanceof BodyRefused) return error.reason;
  return error.code ?? `HTTP ${status}`;
}

/** What fastify's own refusals tell the client, in this endpoint's words where they help. */
function messageOf(
  error: { message: string },
  status: number,
  options: HttpEndpointOptions,
): string {
  if (status === 413) return `the body is larger than ${options.bodyLimitBytes} bytes`;
  if (status === 415 && !(error instanceof BodyRefused)) {
    return 'messages are JSON: send Content-Type: application/json';
  }
  return error.message;
}

function errorAnswers(
  app: FastifyInstance,
  deps: HttpEndpointDeps,
  options: HttpEndpointOptions,
  refuse: Refuse,
): void {
  app.setNotFoundHandler((_request, reply) =>
    refuse(reply, 404, 'no such route', 'no such route; the ERP posts to /erp/<kind>'),
  );
  app.setErrorHandler(
    (error: { statusCode?: number; code?: string; message: string }, _request, reply) => {
      // A transient failure (the database's disk is full) asks the ERP to send again later.
      const status = error.statusCode ?? (isTransient(error) ? 503 : 500);
      if (status >= 500) {
        deps.logger.error({ err: error }, 'http endpoint error');
        if (status === 503) void reply.header('retry-after', '60');
        return reply.code(status).send({ error: STATUS_CODES[status], message: error.message });
      }
      return refuse(reply, status, reasonOf(error, status), messageOf(error, status, options));
    },
  );
}

/**
 * The daemon's own HTTP endpoint: health, readiness, metrics and the ERP's inbound messages. It
 * takes over `door` when given one (a reload's new daemon, on the listening socket the process
 * keeps), else it opens its own on `options.host` and `options.port` and closes it with itself.
 */
export async function startHttpEndpoint(
  options: HttpEndpointOptions,
  deps: HttpEndpointDeps,
  door?: Door,
): Promise<HttpEndpoint> {
  const refusals = new RefusalLog(
    deps.logger,
    (status, route) => deps.refused?.(status, route),
    () => deps.now?.() ?? Date.now(),
  );
  // A burst of refusals ends, and is counted, once it has been quiet a while.
  const sweeps = setInterval(() => refusals.sweep(), 1_000);
  sweeps.unref();
  let handle: DoorRoute['handle'] | undefined;
  // The connection and its time-outs are the door's: this server never listens.
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimitBytes,
    serverFactory: (handler) => {
      handle = handler;
      return createServer();
    },
  });
  const own = door ?? (await openDoor(options));
  const refuse = refuser(refusals, own.refused);
  errorAnswers(app, deps, options, refuse);
  guardConnections(app, refuse, own.refused);
  requireToken(app, options.token, refuse);
  checkedJsonBodies(app);
  healthRoutes(app, deps, options.token);
  inboundRoute(app, deps, refuse);
  if (deps.console !== undefined) await app.register(deps.console, { prefix: '/console' });
  await app.ready();
  if (handle === undefined) throw new Error('fastify gave the endpoint no request handler');
  const admitted = own.admit({ handle, refusals });
  return {
    url: own.url,
    close: async () => {
      clearInterval(sweeps);
      refusals.sweep();
      if (door === undefined) await own.close();
      else await admitted.drained();
      await app.close();
    },
  };
}
