import { recordIdOf, recordVersionOf, type ResourceName } from '../contract/index.js';
import type { PlatformClient, PlatformRecord } from '../platform/index.js';
import type { PullTarget } from '../pull/targets.js';
import { HomecareError, errorMessage } from '../shared/errors.js';
import type { CheckContext } from './context.js';
import { firstRecords, listLabel, targetQuery } from './lists.js';
import type { CheckDefinition } from './runner.js';
import { readCheckId } from './select.js';
import { fail, pass, warn, type Outcome } from './verdict.js';
import { DAY_MS } from '../shared/clock.js';

/** The windows the first list is asked with, narrowest first, until one holds a record. */
const WINDOW_DAYS = [1, 30, 365];
/** Records read of the first list: the newest among them is the one `updatedAfter` is tried on. */
const SAMPLE = 20;
/** Records read of a list looking for the sample before it counts as not found. */
const SCAN_LIMIT = 1_000;
/** "One tick": the stamps are ISO times with milliseconds. */
const TICK_MS = 1;

type Listed = 'listed' | 'absent' | 'unknown';

/** The newest of `records` by its stamp, with its id; undefined when none carries both. */
function newestOf(resource: ResourceName, records: readonly PlatformRecord[]) {
  let newest: { id: string; stamp: string; ms: number } | undefined;
  for (const record of records) {
    const version = recordVersionOf(resource, record);
    const ms = version === undefined ? Number.NaN : Date.parse(version.version);
    if (version === undefined || Number.isNaN(ms)) continue;
    if (newest === undefined || ms > newest.ms)
      newest = { id: version.id, stamp: version.version, ms };
  }
  return newest;
}

/** Whether any of `targets` lists the record `id` with the time parameter at `at`. */
async function listedAt(
  client: PlatformClient,
  targets: readonly PullTarget[],
  at: Date,
  id: string,
): Promise<Listed> {
  let cut = false;
  for (const target of targets) {
    let scanned = 0;
    for await (const record of client.list(target.resource, targetQuery(target, at))) {
      if (recordIdOf(target.resource, record) === id) return 'listed';
      scanned += 1;
      if (scanned >= SCAN_LIMIT) {
        cut = true;
        break;
      }
    }
  }
  return cut ? 'unknown' : 'absent';
}

function refusal(resource: ResourceName, label: string, error: unknown): Outcome {
  const status = error instanceof HomecareError ? error.status : undefined;
  if (status === 403) {
    return fail(
      `the key may not list ${resource}: HTTP 403 to ${label}`,
      `ask the platform operator for read rights to ${resource}, or set sync.resources.${resource}.enabled: false if the ERP needs none of it`,
    );
  }
  if (status === 404 || status === 405) {
    return fail(
      `${label} answered HTTP ${status}: the platform has no such list`,
      'see platform.variant',
    );
  }
  return fail(errorMessage(error), error instanceof HomecareError ? error.hint : undefined);
}

/** The first list of a resource, widening the window until it holds a record. */
async function sampleOf(context: CheckContext, target: PullTarget) {
  const client = context.client();
  const now = client.platformNow().getTime();
  for (const days of WINDOW_DAYS) {
    const records = await firstRecords(
      client,
      target,
      targetQuery(target, new Date(now - days * DAY_MS)),
      SAMPLE,
    );
    if (records.length > 0) return { records, days };
  }
  return { records: [], days: WINDOW_DAYS.at(-1) ?? 0 };
}

/**
 * Whether `updatedAfter` behaves as the spec says ("only records changed after this moment"):
 * the newest record seen is listed again one tick before its own stamp, under one of the status
 * filters the daemon pulls (a record may change filter: an article "created" in a window is
 * "updated" in a later one), and not one tick after it.
 */
async function stampOutcome(
  context: CheckContext,
  targets: readonly PullTarget[],
  records: readonly PlatformRecord[],
  label: string,
): Promise<Outcome> {
  const [first] = targets;
  if (first === undefined) return warn('nothing to list');
  const { resource } = first;
  const newest = newestOf(resource, records);
  if (newest === undefined) {
    return warn(
      `may list ${resource} (${label}), but its records carry no stamp to try updatedAfter on`,
    );
  }
  const client = context.client();
  const windowed = targets.filter((t) => t.timeParam === first.timeParam);
  const record = `${resource} ${newest.id} (stamp ${newest.stamp})`;
  const before = await listedAt(client, windowed, new Date(newest.ms - TICK_MS), newest.id);
  if (before === 'absent') {
    return fail(
      `updatedAfter misses changes: ${record} is not listed with updatedAfter ${TICK_MS} ms before its stamp`,
      'the daemon would miss changes like it until the nightly reconciliation: report it to the platform operator with this record',
    );
  }
  const after =
    before === 'listed'
      ? await listedAt(client, windowed, new Date(newest.ms + TICK_MS), newest.id)
      : 'unknown';
  if (before === 'unknown' || after === 'unknown') {
    return warn(
      `may list ${resource}; updatedAfter could not be told within ${SCAN_LIMIT} records of each list`,
    );
  }
  if (after === 'listed') {
    return warn(
      `may list ${resource}, but updatedAfter does not narrow ${label}: ${record} is listed after its own stamp`,
      first.timeParamGuessed === true
        ? `the contract shows no updatedAfter for this list and the platform seems to ignore it: every pull reads the whole list (nothing is missed)`
        : 'every pull reads more than it needs (nothing is missed); if the record changed meanwhile, run the check again',
    );
  }
  return pass(
    `may list ${resource}; updatedAfter behaves: ${record} is listed ${TICK_MS} ms before its stamp and not ${TICK_MS} ms after`,
  );
}

/** read.<resource>: the key may list it, and its time window behaves. */
async function readOutcome(
  context: CheckContext,
  targets: readonly PullTarget[],
): Promise<Outcome> {
  const [first] = targets;
  if (first === undefined) return warn('nothing to list');
  const { resource } = first;
  const client = context.client();
  const label = listLabel(client, first);
  let sample;
  try {
    sample = await sampleOf(context, first);
  } catch (error) {
    return refusal(resource, label, error);
  }
  if (first.timeParam === undefined) {
    return pass(
      `may list ${resource} (${label}); the list takes no time parameter: the daemon reads it whole`,
    );
  }
  if (sample.records.length === 0) {
    return pass(
      `may list ${resource} (${label}); nothing changed in the last ${sample.days} days, so ${first.timeParam} was not tried`,
    );
  }
  if (first.timeParam !== 'updatedAfter') {
    return pass(
      `may list ${resource} (${label}); ${first.timeParam} filters by creation, not by the record's stamp, so it is not tried`,
    );
  }
  try {
    return await stampOutcome(context, targets, sample.records, label);
  } catch (error) {
    return refusal(resource, label, error);
  }
}

/** One check per resource the daemon pulls, over its pulls (status filters). */
export function readChecks(targets: readonly PullTarget[]): CheckDefinition<CheckContext>[] {
  const byResource = new Map<ResourceName, PullTarget[]>();
  for (const target of targets) {
    if (target.filter === 'archived' && target.timeParam === 'archivedAfter') continue;
    byResource.set(target.resource, [...(byResource.get(target.resource) ?? []), target]);
  }
  return [...byResource].map(([resource, pulls]) => ({
    id: readCheckId(resource),
    needs: ['platform.key'],
    run: (context) => readOutcome(context, pulls),
  }));
}
