import type { Command } from 'commander';
import { notAvailableYet } from '../exit.js';
import { commandWithConfig } from '../options.js';

/** `demo`: everything local, for a first look. */
export function demoCommand(): Command {
  return commandWithConfig(
    'demo',
    'run the platform simulator, the daemon, a file-drop ERP and a stand-in ERP that answers, all locally',
  ).action(notAvailableYet('the local demo (demo)'));
}
