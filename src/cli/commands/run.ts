import type { Command } from 'commander';
import { DATABASE_GONE, startReloadableDaemon, type ReloadableDaemon } from '../../app/reload.js';
import { appFrom, loadedConfigOf } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, type ConfigOption } from '../options.js';
import { signalled } from '../signals.js';

/** How long a stop may take before the process exits anyway (deploy/ manifests allow more). */
export const FORCE_EXIT_MS = 30_000;

/** Why the daemon stopped on its own, for a supervisor that restarts only failed containers. */
function stoppedOnItsOwn(reason: string, database: string): CliExit {
  const what =
    reason === DATABASE_GONE
      ? `database ${database} was deleted or replaced while it ran; put the file back from a backup, then start it again (with a new, empty database every record is pulled and handed to the ERP again)`
      : `${reason}; see the log, fix the config, then start it again`;
  return new CliExit(EXIT.failure, `homecare-sync stopped: ${what}`);
}

/** `run`: the daemon; SIGHUP reloads its config, SIGTERM and SIGINT stop it. */
export function runCommand(): Command {
  return commandWithConfig(
    'run',
    'run the daemon: scheduled pulls, ERP hand-off, retry queue and the HTTP endpoint; stops cleanly on SIGTERM/SIGINT, reloads its config on SIGHUP',
  ).action(async (options: ConfigOption) => {
    let daemon: ReloadableDaemon | undefined;
    // A SIGHUP while the daemon starts is a reload once it has started.
    let reloadAsked = false;
    const reload = () => {
      if (daemon === undefined) reloadAsked = true;
      else void daemon.reload();
    };
    // Listening before anything starts: a SIGTERM that comes while the daemon starts up (a
    // rolling update, a quick Ctrl-C) would otherwise end the process without a clean stop.
    const { signal, dispose } = signalled(reload);
    try {
      const source = { load: () => loadedConfigOf(options), build: appFrom };
      daemon = await startReloadableDaemon(await appFrom(source.load()), source);
      if (reloadAsked) reload();
      const ownStop = daemon.stopped.then((why) => ({ why }));
      const ended = await Promise.race([signal, ownStop]);
      const { logger, store } = daemon.app;
      const reason = typeof ended === 'string' ? ended : ended.why;
      logger.info({ reason }, 'stopping');
      // A stop that hangs (an ERP that never answers) must not keep the container alive forever.
      const force = setTimeout(() => {
        logger.fatal('did not stop within 30 s; exiting');
        process.exit(1);
      }, FORCE_EXIT_MS);
      force.unref();
      const database = store.path;
      await daemon.stop();
      // Not a clean stop: a supervisor that restarts only failed containers must see it.
      if (typeof ended !== 'string') throw stoppedOnItsOwn(ended.why, database);
    } finally {
      dispose();
    }
  });
}
