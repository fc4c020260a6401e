import { RESOURCE_NAMES } from '../contract/index.js';
import { nearestField } from '../shared/nearest.js';

/** The checks of the platform, the ERP and the local store, whatever the config. */
export const FIXED_CHECK_IDS = [
  'platform.proxy',
  'platform.dns',
  'platform.tcp',
  'platform.tls',
  'platform.key',
  'platform.clock',
  'platform.variant',
  'platform.tenant',
  'erp.outbox',
  'erp.inbox',
  'erp.rest',
  'local.database',
  'local.disk',
] as const;

/** `read.<resource>`: whether the key may list a resource the daemon pulls. */
export const readCheckId = (resource: string): string => `read.${resource}`;

/**
 * Every check id there is, for any config: `--only`/`--skip` take them all, so that one script
 * serves installations with other adapters or variants.
 */
export const ALL_CHECK_IDS: readonly string[] = [
  ...FIXED_CHECK_IDS,
  ...RESOURCE_NAMES.map(readCheckId),
];

const groupOf = (id: string): string => id.split('.')[0] ?? id;

/** The names `--only` and `--skip` take: the ids and their groups (`platform`, `read`, ...). */
const NAMES: readonly string[] = [...new Set([...ALL_CHECK_IDS.map(groupOf), ...ALL_CHECK_IDS])];

/** A flag's values: repeated flags and comma-separated lists alike. */
function namesOf(values: readonly string[]): string[] {
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

function unknown(flag: string, names: readonly string[]): string[] {
  return names
    .filter((name) => !NAMES.includes(name))
    .map((name) => {
      const near = nearestField(name, NAMES);
      return `${flag}: no check "${name}"${near === undefined ? '' : ` (did you mean ${near}?)`}`;
    });
}

const matches = (id: string, names: readonly string[]) =>
  names.includes(id) || names.includes(groupOf(id));

/**
 * The checks of `ids` that `--only` (all when empty) and `--skip` leave, in their order; and
 * every name neither knows, each with the name it may have meant.
 */
export function selectChecks(
  ids: readonly string[],
  only: readonly string[],
  skipped: readonly string[],
): { ids: string[]; problems: string[] } {
  const wanted = namesOf(only);
  const left = namesOf(skipped);
  const problems = [...unknown('--only', wanted), ...unknown('--skip', left)];
  const selected = ids.filter(
    (id) => (wanted.length === 0 || matches(id, wanted)) && !matches(id, left),
  );
  return { ids: selected, problems };
}
