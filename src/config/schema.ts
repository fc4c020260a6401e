import type { z } from 'zod';
import type { ResourceName } from '../contract/index.js';
import { DEFAULT_CSV_OPTIONS } from '../erp/formats/index.js';
import { baseConfigSchema, type ParsedConfig } from './baseSchema.js';
import { crossSectionChecks } from './checks.js';

/** Where `timezone` is not set. */
export const DEFAULT_TIME_ZONE = 'UTC';

/**
 * `timezone` defaults to UTC. The CSV's date-times follow `erp.file.csv.timeZone` if given, else
 * `timezone` if given, else Europe/Berlin (German dates were the first use of `dateFormat: de`).
 */
function withTimeZones(config: ParsedConfig) {
  const { csv } = config.erp.file;
  const timeZone = csv.timeZone ?? config.timezone ?? DEFAULT_CSV_OPTIONS.timeZone;
  return {
    ...config,
    timezone: config.timezone ?? DEFAULT_TIME_ZONE,
    erp: { ...config.erp, file: { ...config.erp.file, csv: { ...csv, timeZone } } },
  };
}

export const configSchema = baseConfigSchema
  .superRefine(crossSectionChecks)
  .transform(withTimeZones);

export type Config = z.output<typeof configSchema>;
export type ResourceSettingsInput = NonNullable<Config['sync']['resources'][ResourceName]>;
