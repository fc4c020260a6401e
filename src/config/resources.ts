import { listStatusFilters, type Contract, type ResourceName } from '../contract/index.js';
import type { Config } from './schema.js';

/** What the scheduler does for one list resource, after defaults. */
export interface ResourceSettings {
  resource: ResourceName;
  enabled: boolean;
  schedule: string;
  /** The status filters to pull, each its own pull; empty where the list takes none. */
  statuses: readonly string[];
}

const EVERY_MINUTE = '*/1 * * * *';
const EVERY_FIVE_MINUTES = '*/5 * * * *';
const HOURLY = '0 * * * *';

/** Orders every minute, the records orders depend on every five, master data hourly. */
export function defaultSchedule(resource: ResourceName): string {
  switch (resource) {
    case 'singleOrder':
    case 'directOrder':
      return EVERY_MINUTE;
    case 'patient':
    case 'patientNote':
    case 'integratedCare':
    case 'erpOrder':
      return EVERY_FIVE_MINUTES;
    default:
      return HOURLY;
  }
}

/** Every list resource the contract offers, with the configured settings over the defaults. */
export function effectiveResourceSettings(config: Config, contract: Contract): ResourceSettings[] {
  return contract.operations
    .filter((operation) => operation.kind === 'list')
    .map((operation) => {
      const configured = config.sync.resources[operation.resource];
      const statuses = listStatusFilters(operation);
      return {
        resource: operation.resource,
        enabled: configured?.enabled ?? true,
        schedule: configured?.schedule ?? defaultSchedule(operation.resource),
        statuses: statuses.length > 0 && configured?.statuses ? configured.statuses : statuses,
      };
    });
}
