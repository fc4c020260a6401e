import type { Command } from 'commander';
import type { ResourceName } from '../../contract/index.js';
import { redeliverRecord } from '../../operations/index.js';
import { currentOperator } from '../../store/index.js';
import { withStoreOrExit } from '../context.js';
import { recordCommand, type ConfigOption } from '../options.js';

function redeliverAction(resource: ResourceName, id: string, options: ConfigOption): void {
  const done = withStoreOrExit(options, (store) =>
    redeliverRecord(store, resource, id, currentOperator()),
  );
  const before = done.deliveredBefore ? `handed over before at ${done.deliveredBefore}; ` : '';
  process.stdout.write(
    `${resource} ${id} (${done.version}): ${before}it goes to the ERP again at the daemon's next delivery round, or with \`homecare-sync sync ${resource}\`\n`,
  );
}

/** `redeliver <resource> <_id>`: the ledger drops repeats, so sending again needs asking. */
export function redeliverCommand(): Command {
  return recordCommand(
    'redeliver',
    'hand the latest pulled version of one record to the ERP again (for an ERP that lost it; a checkpoint reset alone does not resend)',
  ).action(redeliverAction);
}
