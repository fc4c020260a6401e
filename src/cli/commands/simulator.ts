import type { Command } from 'commander';
import { notAvailableYet } from '../exit.js';
import { commandWithConfig } from '../options.js';

/** Placeholder until the simulator's own command lands here; it replaces this file. */
export function simulatorCommand(): Command {
  return commandWithConfig('simulator', 'run the platform simulator (every variant) locally')
    .option('--port <n>', 'port to listen on', '8455')
    .option('--host <h>', 'address to listen on', '127.0.0.1')
    .option('--variant <v>', 'A | B | C', 'B')
    .option('--seed <n>', 'seed of the generated data', '1')
    .option('--keys <file>', 'YAML list of API keys {key, tenant, client, attachments}')
    .option('--control-token <t>', 'token of the /__sim control API', 'demo-control')
    .action(notAvailableYet('the platform simulator'));
}
