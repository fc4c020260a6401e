import type { ResourceName } from '../contract/index.js';
import { redeliver, type Redelivery } from '../queue/index.js';
import { PermanentError } from '../shared/errors.js';
import {
  getMirror,
  isReducedRecord,
  recordOperatorAction,
  transaction,
  type Operator,
  type Store,
} from '../store/index.js';

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

/**
 * Hands the latest pulled version of a record to the ERP again (queue/admin.ts redeliver), kept
 * as the operator action `redeliver`. One transaction: the daemon's retention cannot reduce the
 * record between the check and the queueing.
 */
export function redeliverRecord(
  store: Store,
  resource: ResourceName,
  id: string,
  by: Operator,
): Redelivery {
  return transaction(store, () => {
    refuseReduced(store, resource, id);
    const redelivered = redeliver(store, resource, id);
    const action = {
      action: 'redeliver',
      subject: `${resource}:${id}`,
      detail: redelivered.version,
    } as const;
    recordOperatorAction(store, action, by);
    return redelivered;
  });
}
