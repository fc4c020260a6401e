import type { Command } from 'commander';
import { notAvailableYet } from '../exit.js';
import { commandWithConfig } from '../options.js';

/** `status [--json]`. */
export function statusCommand(): Command {
  return commandWithConfig(
    'status',
    'show checkpoints, the last run per resource, queue depth and dead letters',
  )
    .option('--json', 'print JSON instead of a table')
    .action(notAvailableYet('status'));
}
