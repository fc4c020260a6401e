import type { AddressInfo } from 'node:net';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { callerOf, handleApi } from './api/dispatch.js';
import { jsonResponse, type SimResponse } from './api/response.js';
import { registerControlRoutes } from './control/routes.js';
import { SimHttpError } from './httpError.js';
import { sendResponse } from './send.js';
import { createState, type SimulatorState, type SimulatorStateOptions } from './state.js';

export interface SimulatorOptions extends SimulatorStateOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  host?: string;
  controlToken?: string;
  logger?: false | FastifyBaseLogger;
}

export interface RunningSimulator {
  url: string;
  controlToken: string;
  state: SimulatorState;
  close(): Promise<void>;
}

export const DEFAULT_CONTROL_TOKEN = 'demo-control';
const BODY_LIMIT = 64 * 1024 * 1024;

function errorResponse(error: SimHttpError): SimResponse {
  return { ...jsonResponse(error.status, error.toBody()), headers: error.headers };
}

function injectedError(status: number, retryAfter: string | undefined, body: unknown): SimResponse {
  const response = jsonResponse(
    status,
    body ?? {
      error: 'injected_fault',
      message: `the simulator answers ${status} because a fault was injected`,
      problems: [],
    },
  );
  return retryAfter === undefined
    ? response
    : { ...response, headers: { 'retry-after': retryAfter } };
}

async function answer(state: SimulatorState, request: FastifyRequest, url: URL, apiKey?: string) {
  try {
    return await handleApi(state, state.router, callerOf(state.keys, apiKey), {
      method: request.method,
      pathname: url.pathname,
      query: Object.fromEntries(url.searchParams),
      apiKey,
      body: request.body,
    });
  } catch (error) {
    if (error instanceof SimHttpError) return errorResponse(error);
    throw error;
  }
}

/**
 * Reads a streamed list to its end and drops it. A list is read lazily as it is sent (its loop
 * suppression takes effect when the reading starts), so an answer that is never sent is read
 * here for the list to count as processed.
 */
function drain(body: SimResponse['body']): void {
  if (typeof body === 'string' || body instanceof Uint8Array) return;
  for (const piece of body) void piece;
}

/** Ends the connection without an answer, as a reset or a platform gone away does. */
function cutOff(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.hijack();
  request.raw.socket.destroy();
  return reply;
}

/**
 * The API's handler. A fault's latency and slow body take the simulator's clock: a test's fake
 * clock holds the answer until the test lets the time pass. `closing` ends those waits when the
 * simulator closes; the connection is then cut.
 */
function apiHandler(state: SimulatorState, closing: AbortSignal) {
  const wait = (ms: number) => state.clock.sleep(ms, closing);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const url = new URL(request.url, 'http://simulator');
    const header = request.headers['service-api-key'];
    const apiKey = typeof header === 'string' ? header : undefined;
    const entry = state.requests.add({
      method: request.method,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      client: (apiKey && state.keys.get(apiKey)?.client) ?? null,
      status: null,
      time: state.clock.now().toISOString(),
    });
    const effect = state.faults.take(
      request.method,
      url.pathname,
      Object.fromEntries(url.searchParams),
    );
    if (effect && effect.latencyMs > 0) await wait(effect.latencyMs);
    if (effect?.reset || closing.aborted) {
      entry.status = 0;
      return cutOff(request, reply);
    }
    const response = effect?.error
      ? injectedError(effect.error.status, effect.error.retryAfter, effect.error.body)
      : await answer(state, request, url, apiKey);
    if (effect?.resetAfterProcessing) {
      drain(response.body);
      entry.status = 0;
      entry.withheldStatus = response.status;
      return cutOff(request, reply);
    }
    entry.status = response.status;
    return sendResponse(reply, response, effect, { date: state.clock.now(), wait, closing });
  };
}

function buildApp(
  state: SimulatorState,
  options: SimulatorOptions,
  token: string,
  closing: AbortSignal,
): FastifyInstance {
  const app = Fastify(
    options.logger
      ? { loggerInstance: options.logger, bodyLimit: BODY_LIMIT }
      : { logger: false, bodyLimit: BODY_LIMIT },
  );
  // The daemon measures clock skew from this header, so it follows the simulator's clock.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('date', state.clock.now().toUTCString());
    return payload;
  });
  app.setErrorHandler((error: FastifyError | SimHttpError, _request, reply) => {
    if (error instanceof SimHttpError) {
      return reply.code(error.status).headers(error.headers).send(error.toBody());
    }
    const status = error.statusCode ?? 500;
    const word = status < 500 ? 'bad_request' : 'internal_error';
    return reply.code(status).send({ error: word, message: error.message, problems: [] });
  });
  void app.register(
    (scope, _opts, done) => {
      registerControlRoutes(scope, state, token);
      done();
    },
    { prefix: '/__sim' },
  );
  app.route({
    method: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    url: '/*',
    handler: apiHandler(state, closing),
  });
  return app;
}

/** Starts the platform simulator for one variant; tests use port 0, the CLI 8455. */
export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const state = createState(options);
  const controlToken = options.controlToken ?? DEFAULT_CONTROL_TOKEN;
  const closing = new AbortController();
  const app = buildApp(state, options, controlToken, closing.signal);
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host });
  const { port } = app.server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    controlToken,
    state,
    close: async () => {
      // Answers held by a latency or a slow body end now, not when their time would have come.
      closing.abort();
      await app.close();
      state.store.close();
    },
  };
}
