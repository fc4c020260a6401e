import type { Command } from 'commander';
import { startDaemon } from '../../app/daemon.js';
import { withApp } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';
import { signalled } from '../signals.js';

/** How long a stop may take before the process exits anyway (deploy/ manifests allow more). */
export const FORCE_EXIT_MS = 30_000;
const DATABASE_GONE = 'database deleted or replaced';

/** `run`: the daemon. */
export function runCommand(): Command {
  return commandWithConfig(
    'run',
    'run the daemon: scheduled pulls, ERP hand-off, retry queue and the HTTP endpoint; stops cleanly on SIGTERM/SIGINT',
  ).action(async (options: ConfigOption) => {
    // Listening before anything starts: a SIGTERM that comes while the daemon starts up (a
    // rolling update, a quick Ctrl-C) would otherwise end the process without a clean stop.
    const { signal, dispose } = signalled();
    const { reason, database } = await withApp(options, async (app) => {
      const daemon = await startDaemon(app);
      const reason = await Promise.race([signal, daemon.stopped.then(() => DATABASE_GONE)]);
      app.logger.info({ reason }, 'stopping');
      // A stop that hangs (an ERP that never answers) must not keep the container alive forever.
      const force = setTimeout(() => {
        app.logger.fatal('did not stop within 30 s; exiting');
        process.exit(1);
      }, FORCE_EXIT_MS);
      force.unref();
      await daemon.stop();
      return { reason, database: app.store.path };
    }).finally(dispose);
    // Not a clean stop: a supervisor that restarts only failed containers must see it.
    if (reason === DATABASE_GONE) {
      throw new CliExit(
        EXIT.failure,
        `homecare-sync stopped: database ${database} was deleted or replaced while it ran; put the file back from a backup, then start it again (with a new, empty database every record is pulled and handed to the ERP again)`,
      );
    }
  });
}
