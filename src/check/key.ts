import { HomecareError, errorMessage } from '../shared/errors.js';
import { UNREACHABLE_CODE } from '../platform/unreachable.js';
import type { CheckContext } from './context.js';
import { firstRecords, firstTargets, listLabel, targetQuery } from './lists.js';
import type { CheckDefinition } from './runner.js';
import { fail, pass, warn, type Outcome } from './verdict.js';

/** Lists tried before the key check gives up looking for one the key may read. */
const MAX_TRIES = 6;

/** What the platform shows of a key: nothing of its tenant or client (spec: no "who am I"). */
const NO_WHOAMI =
  'the platform names no tenant or client for a key; platform.tenant compares what it shows with this database';

/** An answer that says nothing about the key: the list is not there (variant) or refused its query. */
const SAYS_NOTHING = new Set([400, 403, 404, 405, 422]);

/**
 * platform.key: the platform accepts the key for a list the daemon pulls, read with an empty
 * window (updatedAfter now). 401 is a refused key; lists the key may not read (403) or a wrong
 * variant lacks (404, 405) are passed over for the next.
 */
async function keyOutcome(context: CheckContext): Promise<Outcome> {
  const client = context.client();
  const candidates = firstTargets(context.targets)
    .sort((a, b) => Number(a.timeParam === undefined) - Number(b.timeParam === undefined))
    .slice(0, MAX_TRIES);
  const passedOver: string[] = [];
  for (const target of candidates) {
    const label = listLabel(client, target);
    try {
      await firstRecords(client, target, targetQuery(target, context.deps.clock.now()), 1);
      return pass(`the platform accepts the key (${label} answered)`, NO_WHOAMI);
    } catch (error) {
      const status = error instanceof HomecareError ? error.status : undefined;
      if (status === 401) {
        return fail(
          `the platform refused the key: HTTP 401 to ${label}`,
          'check platform.apiKey (or platform.apiKeyFile): use the key the platform operator issued for your tenant',
        );
      }
      if (status !== undefined && SAYS_NOTHING.has(status)) {
        passedOver.push(`${label}: HTTP ${status}`);
        continue;
      }
      if (error instanceof HomecareError && error.code === UNREACHABLE_CODE) {
        return fail(errorMessage(error), error.hint);
      }
      passedOver.push(`${label}: ${errorMessage(error)}`);
    }
  }
  const allForbidden = passedOver.length > 0 && passedOver.every((p) => p.endsWith('HTTP 403'));
  if (allForbidden) {
    return fail(
      `the platform refused every list it was asked with this key (${passedOver.join('; ')})`,
      'the key is not valid here, or has no read rights at all: ask the platform operator',
    );
  }
  return warn(
    `no list answered, so the key is neither known good nor refused (${passedOver.join('; ')})`,
    'look at platform.variant and the read.* checks below',
  );
}

export const keyCheck: CheckDefinition<CheckContext> = {
  id: 'platform.key',
  needs: ['platform.tls', 'platform.tcp', 'platform.proxy'],
  run: keyOutcome,
};
