import type { Command } from 'commander';
import type { ResourceName } from '../../contract/index.js';
import { redeliver } from '../../queue/index.js';
import { PermanentError } from '../../shared/errors.js';
import { withStore } from '../context.js';
import { CliExit, EXIT } from '../exit.js';
import { commandWithConfig, resourceName, type ConfigOption } from '../options.js';

function redeliverAction(resource: ResourceName, id: string, options: ConfigOption): void {
  let done;
  try {
    done = withStore(options, (store) => redeliver(store, resource, id));
  } catch (error) {
    if (error instanceof PermanentError) throw new CliExit(EXIT.failure, error.message);
    throw error;
  }
  const before = done.deliveredBefore ? `handed over before at ${done.deliveredBefore}; ` : '';
  process.stdout.write(
    `${resource} ${id} (${done.version}): ${before}it goes to the ERP again at the daemon's next delivery round, or with \`homecare-sync sync ${resource}\`\n`,
  );
}

/** `redeliver <resource> <_id>`: the ledger drops repeats, so sending again needs asking. */
export function redeliverCommand(): Command {
  return commandWithConfig(
    'redeliver',
    'hand the latest pulled version of one record to the ERP again (for an ERP that lost it; a checkpoint reset alone does not resend)',
  )
    .argument('<resource>', 'the resource, e.g. singleOrder', resourceName)
    .argument('<_id>', "the record's platform _id")
    .action(redeliverAction);
}
