import type { Command } from 'commander';
import { notAvailableYet } from '../exit.js';
import { commandWithConfig } from '../options.js';

/** `sync [resource...] [--once]`: one full pass, then exit. */
export function syncCommand(): Command {
  return commandWithConfig(
    'sync',
    'one full pass (pull, hand to the ERP, acknowledge, read the inbox, drain the queue) and exit',
  )
    .argument('[resource...]', 'only these resources (platform names, e.g. singleOrder article)')
    .option('--once', 'run a single pass and exit (the default)')
    .addHelpText('after', '\nExit code 0 only when nothing failed.')
    .action(notAvailableYet('one-off sync (sync)'));
}
