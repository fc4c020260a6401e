import pino from 'pino';
import {
  startHttpEndpoint,
  type HttpEndpoint,
  type HttpEndpointDeps,
  type HttpEndpointOptions,
} from '../../src/http/server.js';

const alwaysReady = () => ({ ready: true, problems: [], checks: {} });

/**
 * The daemon's endpoint on a free loopback port, always ready, taking every message, with
 * `options` and `deps` replacing those defaults: for tests of one route or limit.
 */
export function startTestEndpoint(
  options: Partial<HttpEndpointOptions> = {},
  deps: Partial<HttpEndpointDeps> = {},
): Promise<HttpEndpoint> {
  return startHttpEndpoint(
    {
      host: '127.0.0.1',
      port: 0,
      token: 'erp-secret',
      bodyLimitBytes: 4096,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 5_000,
      maxConnections: 1_024,
      ...options,
    },
    {
      logger: pino({ enabled: false }),
      liveness: () => ({ ok: true }),
      readiness: alwaysReady,
      inboundReadiness: alwaysReady,
      metrics: () => Promise.resolve({ contentType: 'text/plain', body: '' }),
      inbound: () => ({ status: 'accepted', id: 1 }),
      ...deps,
    },
  );
}
