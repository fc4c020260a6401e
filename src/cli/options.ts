import { Command, InvalidArgumentError } from 'commander';
import { CONFIG_ENV_VAR, DEFAULT_CONFIG_PATH } from '../config/index.js';
import { isResourceName, RESOURCE_NAMES, type ResourceName } from '../contract/index.js';

export interface ConfigOption {
  config?: string;
}

/** A command that takes `-c, --config <file>` like every command of homecare-sync. */
export function commandWithConfig(name: string, description: string): Command {
  return new Command(name)
    .description(description)
    .option(
      '-c, --config <file>',
      `the YAML config file (default: $${CONFIG_ENV_VAR}, else ${DEFAULT_CONFIG_PATH})`,
    );
}

/** Commander's parser of a `<resource>` argument: a platform resource name. */
export function resourceName(value: string): ResourceName {
  if (isResourceName(value)) return value;
  throw new InvalidArgumentError(`not a resource name; one of ${RESOURCE_NAMES.join(', ')}`);
}
