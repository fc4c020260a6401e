import type { ResourceName } from '../contract/index.js';
import { DEFAULT_LIST_BOUNDS, defaultMaxRecords, type ListBounds } from '../platform/index.js';
import type { PullTarget } from './targets.js';

/** The `sync.*` settings that bound a pull; what is not given takes its default. */
export interface PullBoundSettings {
  maxListBytes?: number;
  maxRecordBytes?: number;
  maxListSeconds?: number;
  resources?: Partial<Record<ResourceName, { maxRecords?: number | undefined } | undefined>>;
}

/**
 * The bounds of one pull, each named by the config key that sets it. `maxJsonDepth` is what the
 * store can hold: a record nested deeper is quarantined instead of failing its whole list.
 */
export function boundsFor(
  target: PullTarget,
  settings: PullBoundSettings,
  maxJsonDepth: number,
): ListBounds {
  const { resource } = target;
  const records = settings.resources?.[resource]?.maxRecords ?? defaultMaxRecords(resource);
  const seconds = settings.maxListSeconds ?? DEFAULT_LIST_BOUNDS.maxListSeconds;
  return {
    records: { limit: records, key: `sync.resources.${resource}.maxRecords` },
    bytes: {
      limit: settings.maxListBytes ?? DEFAULT_LIST_BOUNDS.maxListBytes,
      key: 'sync.maxListBytes',
    },
    seconds: { limit: seconds, key: 'sync.maxListSeconds' },
    recordBytes: {
      limit: settings.maxRecordBytes ?? DEFAULT_LIST_BOUNDS.maxRecordBytes,
      key: 'sync.maxRecordBytes',
    },
    depth: maxJsonDepth,
  };
}
