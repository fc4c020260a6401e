import type { Contract, ResourceName } from '../contract/index.js';
import { HomecareError, errorMessage } from '../shared/errors.js';
import { sampleMirrored } from '../store/index.js';
import type { CheckContext } from './context.js';
import type { CheckDefinition } from './runner.js';
import { fail, pass, skip, warn, type Outcome } from './verdict.js';

/** Records of the mirror looked up on the platform. */
const SAMPLE = 3;

const NOT_OBSERVABLE =
  'the platform names no tenant for a key (its contract has no "who am I"), and this database holds no record yet to compare with; after the first sync this check asks the platform for records the database holds';

/** Resources whose single read takes the `_id` and answers the record: what a lookup needs. */
function readableById(contract: Contract): ResourceName[] {
  return contract.operations
    .filter(
      (o) =>
        o.kind === 'get' &&
        o.detail.response === undefined &&
        (o.detail.idKind === '_id' || o.detail.idKind === '_idOrCustomerNumber'),
    )
    .map((o) => o.resource);
}

/**
 * platform.tenant: the key sees the records this database was filled with, so it is a key of
 * the same tenant. What the platform shows of a key is only what the key may read: with nothing
 * in the database there is nothing to compare, and the check says so.
 */
async function tenantOutcome(context: CheckContext): Promise<Outcome> {
  const database = context.database();
  if (database.state !== 'open') return skip(`no database to compare with: ${database.message}`);
  const sample = sampleMirrored(database.store, readableById(context.contract), SAMPLE);
  if (sample.length === 0) return skip('not observable yet', NOT_OBSERVABLE);
  const client = context.client();
  const missing: string[] = [];
  for (const { resource, id } of sample) {
    try {
      await client.record(resource as ResourceName, 'get', { id });
    } catch (error) {
      if (!(error instanceof HomecareError && error.status === 404)) {
        return warn(`could not look up ${resource} ${id}: ${errorMessage(error)}`);
      }
      missing.push(`${resource} ${id}`);
    }
  }
  const seen = sample.length - missing.length;
  if (missing.length === 0) {
    return pass(
      `the key sees the records this database holds (${seen} of ${sample.length} looked up): the same tenant`,
    );
  }
  const what = `the key does not see ${missing.length} of ${sample.length} records this database holds (${missing.join(', ')} answer 404)`;
  if (seen === 0) {
    return fail(
      `${what}: it is a key of another tenant than the one this database was filled from`,
      "check platform.apiKey; a new tenant needs a new database (storage.path): this one's records and checkpoints are another tenant's",
    );
  }
  return warn(
    `${what}; ${seen} are there: deleted on the platform, or a key of a narrower organisation`,
  );
}

export const tenantCheck: CheckDefinition<CheckContext> = {
  id: 'platform.tenant',
  needs: ['platform.key'],
  run: tenantOutcome,
};
