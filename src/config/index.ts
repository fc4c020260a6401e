/**
 * Mechanism: the config. YAML loading, environment substitution, secret files, the schema with its
 * defaults, and every problem listed by path.
 */
export { ConfigError } from './errors.js';
export { loadConfig, type LoadConfigOptions, type LoadedConfig } from './load.js';
export { maskSecrets, MASK } from './mask.js';
export { defaultSchedule, effectiveResourceSettings, type ResourceSettings } from './resources.js';
export type { Config } from './schema.js';
export { secretValues } from './secrets.js';
export {
  CONFIG_ENV_VAR,
  DEFAULT_CONFIG_PATH,
  resolveConfigPath,
  type ConfigLocation,
} from './source.js';
export type { Env } from './substitute.js';
export { folderProblem } from './paths.js';
