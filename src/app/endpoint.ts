/**
 * The daemon's endpoint as the config sets it: on a door (its listening socket) the process may
 * keep across reloads.
 */
import { alertsWanted } from '../config/alertsSchema.js';
import type { Config } from '../config/index.js';
import type { Door, DoorOptions } from '../http/door.js';
import type { HttpEndpoint } from '../http/server.js';
import { errorMessage, SetupError } from '../shared/errors.js';
import type { App } from './app.js';
import { consoleOf, type DaemonMemory } from './console.js';
import type { DaemonHealth } from './daemonHealth.js';

/** The endpoint could not listen: a setup problem, named by the config keys that fix it. */
function listenProblem(error: unknown, host: string, port: number): SetupError {
  const code = (error as { code?: unknown }).code;
  const why =
    code === 'EADDRINUSE'
      ? 'is in use by another program'
      : code === 'EACCES'
        ? 'may not be opened by this user'
        : `cannot be opened (${errorMessage(error)})`;
  return new SetupError(
    `the HTTP endpoint cannot listen on ${host}:${port}`,
    [
      `http.port: port ${port} on ${host} ${why}; choose another http.port (or http.host), or set http.enabled: false`,
    ],
    { cause: error },
  );
}

/** The listening socket's options as `http` sets them. */
export function doorOptions(config: Config): DoorOptions {
  const { host, port, requestTimeoutMs, headersTimeoutMs, maxConnections } = config.http;
  return { host, port, requestTimeoutMs, headersTimeoutMs, maxConnections };
}

/** Opens the endpoint's door as the config says; a port in use is a setup problem. */
export async function openDoorFor(config: Config): Promise<Door> {
  // Loaded only when enabled: the endpoint is much of what a start loads.
  const { openDoor } = await import('../http/door.js');
  const options = doorOptions(config);
  try {
    return await openDoor(options);
  } catch (error) {
    throw listenProblem(error, options.host, options.port);
  }
}

/** Whether `door` is where `config` wants the endpoint: a new address needs a new door. */
export function sameAddress(door: Door, config: Config): boolean {
  const wanted = doorOptions(config);
  return door.options.host === wanted.host && door.options.port === wanted.port;
}

/**
 * The daemon's health checks, built once for the endpoint and the alerts alike; none when
 * neither is on. Loaded only then: the readiness probes are much of what a start loads.
 */
export async function healthOf(app: App, startedAt: Date): Promise<DaemonHealth | undefined> {
  const wanted = app.config.http.enabled || alertsWanted(app.config.alerts);
  if (!wanted) return undefined;
  const { daemonHealth } = await import('./daemonHealth.js');
  return daemonHealth(app, startedAt);
}

/**
 * The endpoint, when `http.enabled`: on `door` when given (it takes it over), else on a door of
 * its own, opened here and closed with it. The console's pages on it when `console.enabled`,
 * showing what the daemon remembers (`memory`).
 */
export async function startEndpoint(
  app: App,
  health: DaemonHealth | undefined,
  memory: DaemonMemory,
  door?: Door,
): Promise<HttpEndpoint | undefined> {
  const { metrics, config } = app;
  const http = config.http;
  // createApp builds the metrics exactly when http.enabled.
  if (!http.enabled || metrics === undefined || health === undefined) return undefined;
  // Loaded only when enabled: fastify is much of what a start loads.
  const { startHttpEndpoint } = await import('../http/server.js');
  const options = {
    ...doorOptions(config),
    token: http.token,
    bodyLimitBytes: http.bodyLimitBytes,
  };
  door?.apply(options);
  const consoleRoutes = await consoleOf(app, health, memory);
  let endpoint: HttpEndpoint;
  try {
    endpoint = await startHttpEndpoint(
      options,
      {
        ...(consoleRoutes === undefined ? {} : { console: consoleRoutes }),
        logger: app.logger,
        liveness: health.live,
        readiness: health.ready,
        inboundReadiness: health.inboundReady,
        metrics: async () => ({
          contentType: metrics.registry.contentType,
          body: await metrics.registry.metrics(),
        }),
        inbound: app.inbound,
        refused: (status, route) => metrics.refused(status, route),
        now: () => app.clock.now().getTime(),
      },
      door,
    );
  } catch (error) {
    throw door === undefined ? listenProblem(error, http.host, http.port) : error;
  }
  // Listening: probe the platform and the ERP now, so that the first /readyz has an answer.
  void health.refresh();
  return endpoint;
}
