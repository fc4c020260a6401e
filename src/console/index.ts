/**
 * Interface: the operator's web console, served by the daemon's endpoint under /console when
 * `console.enabled`. Server-rendered pages, no script: the search by any key and a record's
 * story (src/trace/), health at a glance, and the operator's actions, each the CLI's own code
 * (src/operations/). Who may do what is decided here (access.ts, auth.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ConsoleAuth } from './auth.js';
import { consoleErrors, guardConsole } from './access.js';
import type { ConsoleDeps } from './deps.js';
import { deadLetterRoutes } from './routes/deadLetters.js';
import { homeRoutes } from './routes/home.js';
import { pauseRoutes } from './routes/pauses.js';
import { recordRoutes } from './routes/records.js';
import { sessionRoutes } from './routes/session.js';

export type { ConsoleDeps, DaemonView, Outage } from './deps.js';

/** A form's body: small, URL-encoded, one value per field. */
const FORM_BYTES = 16 * 1024;

/** The console as a fastify plugin, registered by the endpoint under /console. */
export function consolePlugin(deps: ConsoleDeps) {
  return (app: FastifyInstance, _options: unknown, done: (error?: Error) => void): void => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BYTES },
      (_request, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      },
    );
    const auth = new ConsoleAuth(deps.config.console, deps.store, deps.clock);
    guardConsole(app, deps.config.console, auth);
    consoleErrors(app, deps.logger);
    sessionRoutes(app, auth);
    homeRoutes(app, deps);
    recordRoutes(app, deps);
    deadLetterRoutes(app, deps);
    pauseRoutes(app, deps);
    done();
  };
}
