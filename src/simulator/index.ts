/**
 * Tool: the platform simulator, every variant, tenants and keys, seed data and fault injection,
 * over real HTTP.
 */
export { startSimulator, DEFAULT_CONTROL_TOKEN } from './server.js';
export { SimControl } from './controlClient.js';
export type { SimulatorOptions, RunningSimulator } from './server.js';
export { DEFAULT_KEYS, readKeysFile } from './keys.js';
export type { ApiKeyEntry } from './keys.js';
export type { FaultSpec, Fault } from './faults.js';
export type { RequestLogEntry } from './requestLog.js';
export {
  DEFAULT_LOOP_SUPPRESSION,
  isLoopSuppression,
  LOOP_SUPPRESSIONS,
  type LoopSuppression,
} from './loopSuppression.js';
