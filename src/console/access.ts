import type { FastifyInstance } from 'fastify';
import type { Logger } from '../log/index.js';
import type { ConsoleConfig } from '../config/consoleSchema.js';
import type { ConsoleAuth } from './auth.js';
import { sendRefusal, setViewer, type ConsoleRouteAccess } from './context.js';
import { href } from './html.js';
import { isLoopback, isSameOrigin, SECURITY_HEADERS } from './security.js';
import { canAct } from './viewer.js';

const READS = new Set(['GET', 'HEAD']);

/**
 * Every console request, decided by the route the router matched, in this order: the security
 * headers on every answer; a client from another machine refused unless `console.remote`; a
 * change (any method but GET and HEAD) refused unless it comes from the console's own pages
 * (Sec-Fetch-Site or Origin; a bearer token needs no such proof, a browser never sends one on
 * its own); the viewer found by token or session, else a page to log in first; a change by a
 * read-only viewer refused.
 */
export function guardConsole(app: FastifyInstance, config: ConsoleConfig, auth: ConsoleAuth): void {
  app.addHook('onRequest', async (request, reply) => {
    void reply.headers(SECURITY_HEADERS);
    const access = request.routeOptions.config as Partial<ConsoleRouteAccess> | undefined;
    if (!config.remote && !isLoopback(request.socket.remoteAddress)) {
      return sendRefusal(
        request,
        reply,
        403,
        'The console answers on this machine only (console.remote is off): reach it through a port-forward or an SSH tunnel.',
      );
    }
    const found = auth.viewerOf(request.headers);
    const changes = !READS.has(request.method);
    const headers = {
      host: request.headers.host,
      origin: request.headers.origin,
      secFetchSite: request.headers['sec-fetch-site'],
    };
    if (changes && found?.by !== 'token' && !isSameOrigin(headers)) {
      return sendRefusal(
        request,
        reply,
        403,
        'Refused: the request did not come from the console’s own pages.',
      );
    }
    if (found !== undefined) setViewer(request, found.viewer);
    if (access?.open === true) return undefined;
    if (found === undefined) {
      if (changes) return sendRefusal(request, reply, 401, 'Your session has ended: log in again.');
      const next = request.url.startsWith('/console') ? request.url : '/console';
      return reply.redirect(href('/console/login', { next }), 303);
    }
    if (access?.acts === true && !canAct(found.viewer)) {
      return sendRefusal(request, reply, 403, 'Refused: your role is read-only.');
    }
    return undefined;
  });
}

/**
 * The console's page for a failure. A path under /console the router knows nothing of gets the
 * endpoint's own refusal: access is decided by the route matched, and none was.
 */
export function consoleErrors(app: FastifyInstance, logger: Logger): void {
  app.setErrorHandler((error: { statusCode?: number; message: string }, request, reply) => {
    const status =
      error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      logger.error({ err: error, route: request.routeOptions.url }, 'console: a page failed');
    }
    const text = status === 500 ? 'Something failed; the daemon’s log says what.' : error.message;
    return sendRefusal(request, reply, status, text);
  });
}
