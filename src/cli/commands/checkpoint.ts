import { Command, InvalidArgumentError } from 'commander';
import { contractFor, type ResourceName } from '../../contract/index.js';
import {
  currentOperator,
  listCheckpoints,
  recordOperatorAction,
  resetCheckpoint,
  transaction,
} from '../../store/index.js';
import { pullTargets } from '../../pull/targets.js';
import { whileNoDaemonRuns, withStore } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, resourceName, type ConfigOption } from '../options.js';

function isoTime(value: string): string {
  if (
    /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  ) {
    return value;
  }
  throw new InvalidArgumentError('expected an ISO 8601 time such as 2024-05-01T00:00:00Z');
}

/** A running daemon's next pull would move the checkpoint on, undoing the reset without a word. */
const RESET_REFUSED = {
  command: 'checkpoint reset',
  stopFirst:
    'a running daemon would carry on from its own checkpoint; stop it (SIGTERM), reset, then start it again',
};

/** `checkpoint list|reset`: the stored `updatedAfter` watermarks. */
export function checkpointCommand(): Command {
  const list = commandWithConfig('list', 'list the checkpoint of every resource and status filter')
    .option('--json', 'print JSON')
    .action((options: ConfigOption & { json?: boolean }) => {
      const checkpoints = withStore(options, (store) => listCheckpoints(store));
      if (options.json) {
        process.stdout.write(`${JSON.stringify(checkpoints, null, 2)}\n`);
        return;
      }
      for (const c of checkpoints) {
        process.stdout.write(
          `${c.resource.padEnd(22)} ${(c.filter || '-').padEnd(12)} ${c.watermark ?? '(from the beginning)'}\n`,
        );
      }
    });
  const reset = commandWithConfig(
    'reset',
    'move a checkpoint back so the next pull fetches again (the ledger drops repeats; `redeliver` sends a record again); refused while the daemon runs',
  )
    .argument('<resource>', 'the resource, e.g. singleOrder', resourceName)
    .option('--to <iso>', 'the time to start from (default: the beginning)', isoTime)
    .action((resource: ResourceName, options: ConfigOption & { to?: string }) => {
      const changed = withStore(options, (store, config) => {
        const filters = pullTargets(contractFor(config.platform.variant, config.platform.paths))
          .filter((t) => t.resource === resource)
          .map((t) => t.filter);
        if (filters.length === 0) {
          throw new CliExit(
            EXIT.usage,
            `${resource} has no checkpoint: variant ${config.platform.variant} has no list of it`,
          );
        }
        return whileNoDaemonRuns(store, RESET_REFUSED, () =>
          transaction(store, () => {
            const reset = resetCheckpoint(store, resource, options.to, filters);
            const detail = `to ${options.to ?? 'the beginning'}`;
            const action = {
              action: 'checkpointReset',
              subject: `checkpoint:${resource}`,
              detail,
            } as const;
            recordOperatorAction(store, action, currentOperator());
            return reset;
          }),
        );
      });
      process.stdout.write(
        `${resource}: ${changed} checkpoint(s) now start ${options.to ? `at ${options.to}` : 'from the beginning'}\n`,
      );
    });
  return new Command('checkpoint')
    .description('the stored pull checkpoints')
    .addCommand(list)
    .addCommand(reset);
}
