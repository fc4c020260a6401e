import type { Command } from 'commander';
import { notAvailableYet } from '../exit.js';
import { commandWithConfig } from '../options.js';

/** `run`: the daemon. */
export function runCommand(): Command {
  return commandWithConfig(
    'run',
    'run the daemon: scheduled pulls, ERP hand-off, retry queue and the HTTP endpoint; stops cleanly on SIGTERM/SIGINT',
  ).action(notAvailableYet('the daemon (run)'));
}
