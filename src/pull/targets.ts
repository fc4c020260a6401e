import { effectiveResourceSettings, type Config, type ResourceSettings } from '../config/index.js';
import {
  LISTS_LEAVING_ARCHIVED_OUT,
  referredResources,
  type Contract,
  type ResourceName,
} from '../contract/index.js';

/** The query parameter a list is windowed by, in the order we prefer them. */
const TIME_PARAMS = ['updatedAfter', 'createdAfter'] as const;
type TimeParam = (typeof TIME_PARAMS)[number] | 'archivedAfter';

/**
 * One incremental pull: a list resource with one value of its `status` filter (or none). Each
 * target has its own checkpoint, keyed by (resource, filter).
 */
export interface PullTarget {
  resource: ResourceName;
  /** The status filter value, `archived` for an `archivedAfter` pull, '' for none. */
  filter: string;
  status?: string;
  /** Absent where the list takes no time parameter (e.g. /region): every pull is full. */
  timeParam?: TimeParam;
  /** The spec shows no such parameter for this list; we send it and fall back when refused. */
  timeParamGuessed?: boolean;
  /**
   * The list leaves archived records out and the variant offers no filter for them: the
   * reconciliation reads it whole and reports the records it no longer holds (vanished).
   */
  vanishing?: boolean;
  /**
   * The contract reads a record of it by id: a hand-over that refers to one the mirror lacks
   * reads it alone (deliver/references.ts), so the first pass need not wait for its list.
   */
  readAlone?: true;
}

export interface TargetSettings {
  enabled: boolean;
  statuses?: readonly string[];
}

/**
 * The targets in the contract's order, except that what a resource refers to is pulled before
 * it: on a first pull the orders find their patients, articles and care arrangements in the
 * mirror and go to the ERP at once, instead of waiting (care arrangements have no single read)
 * for the pass after.
 */
function referredFirst(targets: readonly PullTarget[]): PullTarget[] {
  const placed = new Set<ResourceName>();
  const ordered: PullTarget[] = [];
  const place = (resource: ResourceName): void => {
    if (placed.has(resource)) return;
    placed.add(resource);
    referredResources(resource).forEach(place);
    ordered.push(...targets.filter((target) => target.resource === resource));
  };
  targets.forEach((target) => place(target.resource));
  return ordered;
}

/**
 * `resources` (in reference order) in waves: each wave holds those whose referred resources
 * among `resources` are all in earlier waves, so a wave's pulls can run side by side and an
 * order still finds what it refers to in the mirror. A first pass pulled one by one waited for
 * each reference list in turn before the orders' list started.
 */
export function referenceWaves(resources: readonly ResourceName[]): ResourceName[][] {
  const waves: ResourceName[][] = [];
  let left = [...resources];
  while (left.length > 0) {
    // Ready: nothing it refers to is still to pull (pulled in an earlier wave, or not pulled).
    const ready = left.filter((resource) =>
      referredResources(resource).every((referred) => !left.includes(referred)),
    );
    // A circle of references (none in the contract) would leave nothing ready: one at a time.
    const wave = ready.length > 0 ? ready : left.slice(0, 1);
    left = left.filter((resource) => !wave.includes(resource));
    waves.push(wave);
  }
  return waves;
}

/**
 * Every pull the daemon makes for `contract`'s variant, derived from the list operations' query
 * rules: one per status filter value where a `status` parameter exists, else one. A list that
 * also takes `archivedAfter` (attachments in B) gets a second pull for archived records.
 * Referred resources come first (`referredFirst`).
 */
export function pullTargets(
  contract: Contract,
  settings: Partial<Record<ResourceName, TargetSettings>> = {},
): PullTarget[] {
  const targets: PullTarget[] = [];
  for (const operation of contract.operations) {
    if (operation.kind !== 'list') continue;
    const setting = settings[operation.resource];
    if (setting && !setting.enabled) continue;
    const params = operation.detail.query.params;
    const timeParam = TIME_PARAMS.find((name) => name in params);
    const guessed = timeParam !== undefined && operation.detail.query.guessed?.includes(timeParam);
    const readAlone = contract.find(operation.resource, 'get') !== undefined;
    const base = {
      resource: operation.resource,
      ...(timeParam ? { timeParam } : {}),
      ...(guessed ? { timeParamGuessed: true } : {}),
      ...(readAlone ? { readAlone: true as const } : {}),
    };
    const statusParam = params['status'];
    if (statusParam?.type === 'enum') {
      const wanted = setting?.statuses ?? statusParam.values;
      for (const status of statusParam.values.filter((v) => wanted.includes(v))) {
        targets.push({ ...base, filter: status, status });
      }
    } else {
      targets.push({ ...base, filter: '' });
    }
    if ('archivedAfter' in params) {
      targets.push({
        resource: operation.resource,
        filter: 'archived',
        timeParam: 'archivedAfter',
        ...(readAlone ? { readAlone: true as const } : {}),
      });
    } else if (
      LISTS_LEAVING_ARCHIVED_OUT.includes(operation.resource) &&
      !(statusParam?.type === 'enum' && statusParam.values.includes('archived'))
    ) {
      for (const target of targets)
        if (target.resource === operation.resource) target.vanishing = true;
    }
  }
  return referredFirst(targets);
}

export function targetName(target: PullTarget): string {
  return target.filter === '' ? target.resource : `${target.resource}?status=${target.filter}`;
}

function targetSettings(resources: readonly ResourceSettings[]): Record<string, TargetSettings> {
  return Object.fromEntries(
    resources.map((r) => [
      r.resource,
      { enabled: r.enabled, ...(r.statuses.length > 0 ? { statuses: r.statuses } : {}) },
    ]),
  );
}

/** The pulls the daemon makes with `config`: every list of the variant the config leaves enabled. */
export function daemonPullTargets(config: Config, contract: Contract): PullTarget[] {
  return pullTargets(contract, targetSettings(effectiveResourceSettings(config, contract)));
}
