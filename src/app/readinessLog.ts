import { readinessChanges, type ReadinessChange } from '../http/readiness.js';
import { repeat, type Repeating } from '../shared/repeat.js';
import type { App } from './app.js';
import type { DaemonHealth } from './daemonHealth.js';

/** One line per change of readiness: warn when it stops, info otherwise. */
function tell(app: App, change: ReadinessChange): void {
  const { logger } = app;
  if (change.ready) {
    const since = change.notReadySince;
    if (since === undefined) logger.info('readiness: ready');
    else logger.info({ notReadySince: since }, `readiness: ready again (not ready since ${since})`);
    return;
  }
  const fields = { failing: change.failing, problems: change.problems };
  const problems = change.problems.join('; ');
  if (change.still) logger.info(fields, `readiness: still not ready, now: ${problems}`);
  else logger.warn(fields, `readiness: not ready: ${problems}`);
}

/**
 * The daemon looks at its own readiness every `http.readyCheckSeconds` (how often the probes
 * run) and logs each change once (http/readiness.ts readinessChanges), whether or not anyone
 * asks `/readyz`. The first look waits for the probes: before them every check reads "not
 * checked yet".
 */
export function logReadiness(app: App, health: DaemonHealth): Repeating {
  const look = readinessChanges(
    (change) => tell(app, change),
    () => app.clock.now().getTime(),
  );
  let probed = false;
  return repeat(
    async () => {
      if (!probed) await health.refresh();
      probed = true;
      look(health.ready());
    },
    {
      intervalMs: app.config.http.readyCheckSeconds * 1000,
      firstAtOnce: true,
      clock: app.clock,
      onError: (error) => app.logger.warn({ err: error }, 'readiness: looking at it failed'),
    },
  );
}
