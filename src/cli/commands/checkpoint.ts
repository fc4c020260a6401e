import { Command, InvalidArgumentError } from 'commander';
import { isResourceName, RESOURCE_NAMES } from '../../contract/index.js';
import { notAvailableYet } from '../exit.js';
import { commandWithConfig } from '../options.js';

function resourceName(value: string): string {
  if (isResourceName(value)) return value;
  throw new InvalidArgumentError(`not a resource name; one of ${RESOURCE_NAMES.join(', ')}`);
}

function isoTime(value: string): string {
  if (
    /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) &&
    !Number.isNaN(Date.parse(value))
  ) {
    return value;
  }
  throw new InvalidArgumentError('expected an ISO 8601 time such as 2024-05-01T00:00:00Z');
}

/** `checkpoint list|reset`: the stored `updatedAfter` watermarks. */
export function checkpointCommand(): Command {
  const list = commandWithConfig(
    'list',
    'list the checkpoint of every resource and status filter',
  ).action(notAvailableYet('checkpoint list'));
  const reset = commandWithConfig(
    'reset',
    'move a checkpoint back so the next pull fetches again (the ledger drops repeats)',
  )
    .argument('<resource>', 'the resource, e.g. singleOrder', resourceName)
    .option('--to <iso>', 'the time to start from (default: the beginning)', isoTime)
    .action(notAvailableYet('checkpoint reset'));
  return new Command('checkpoint')
    .description('the stored pull checkpoints')
    .addCommand(list)
    .addCommand(reset);
}
