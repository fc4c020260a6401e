import type { Command } from 'commander';
import type { ResourceName } from '../../contract/index.js';
import { redeliver } from '../../queue/index.js';
import { PermanentError } from '../../shared/errors.js';
import {
  currentOperator,
  getMirror,
  isReducedRecord,
  recordOperatorAction,
  transaction,
  type Store,
} from '../../store/index.js';
import { withStoreOrExit } from '../context.js';
import { recordCommand, type ConfigOption } from '../options.js';

/** Why a reduced record lost its body: retention for one that ended, else an erasure. */
function reducedBecause(record: Readonly<Record<string, unknown>>): string {
  const ended =
    record['archived'] === true ? 'archived' : record['status'] === -1 ? 'Deleted' : undefined;
  return ended === undefined
    ? 'an erasure (`forget patient`) reduced it'
    : `it was ${ended} more than retention.endedRecords days before, so retention (or an erasure with \`forget\`) reduced it`;
}

/**
 * A record whose body retention or `forget` reduced keeps only ids, stamps and status: handed
 * to the ERP it would arrive as an empty record, over the ERP's own copy. Refused, naming it.
 */
function refuseReduced(store: Store, resource: ResourceName, id: string): void {
  const mirrored = getMirror(store, resource, id);
  if (mirrored === undefined || !isReducedRecord(mirrored.record)) return;
  const since = String(mirrored.record['_reduced']);
  throw new PermanentError(
    `${resource} ${id} (${mirrored.version}) cannot be redelivered: since ${since} homecare-sync keeps only its ids, stamps and status (${reducedBecause(mirrored.record)}), which would reach the ERP as an empty record. The platform still has it whole: once it changes there, its new version is pulled whole and goes to the ERP as usual`,
    { resource, id, code: 'REDUCED_RECORD' },
  );
}

function redeliverAction(resource: ResourceName, id: string, options: ConfigOption): void {
  // One transaction: the daemon's retention cannot reduce the record between check and queue.
  const done = withStoreOrExit(options, (store) =>
    transaction(store, () => {
      refuseReduced(store, resource, id);
      const redelivered = redeliver(store, resource, id);
      const action = {
        action: 'redeliver',
        subject: `${resource}:${id}`,
        detail: redelivered.version,
      } as const;
      recordOperatorAction(store, action, currentOperator());
      return redelivered;
    }),
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
