import { Command, InvalidArgumentError } from 'commander';
import { CONFIG_ENV_VAR, DEFAULT_CONFIG_PATH } from '../config/index.js';
import { isResourceName, RESOURCE_NAMES, type ResourceName } from '../contract/index.js';
import { nearestField } from '../shared/nearest.js';

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

/** A command about one record, named `<resource> <_id>` as the platform names it. */
export function recordCommand(name: string, description: string): Command {
  return commandWithConfig(name, description)
    .argument('<resource>', 'the resource, e.g. singleOrder', resourceName)
    .argument('<_id>', "the record's platform _id");
}

/** Commander's parser of a `<resource>` argument: a platform resource name. */
export function resourceName(value: string): ResourceName {
  if (isResourceName(value)) return value;
  throw new InvalidArgumentError(
    `not a resource name${didYouMean(value, RESOURCE_NAMES)}; one of ${RESOURCE_NAMES.join(', ')}`,
  );
}

/** ` (did you mean X?)` when `value` is a misspelling of one of `known` (a few edits), else ''. */
export function didYouMean(value: string, known: Iterable<string>): string {
  const nearest = nearestField(value, known);
  return nearest === undefined ? '' : ` (did you mean ${nearest}?)`;
}
