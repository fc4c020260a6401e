import type { ResourceName } from '../../contract/index.js';

/** One generated record and the resource it belongs to. */
export interface SeedRecord {
  resource: ResourceName;
  record: Record<string, unknown>;
}
