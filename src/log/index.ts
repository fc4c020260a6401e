/**
 * Mechanism: logging (pino) with secrets and personal values redacted by key.
 */
export { createLogger } from './logger.js';
export type { Logger, LoggerOptions } from './logger.js';
export { REDACTED, isSensitiveKey } from './sensitiveKeys.js';
export { redactJson } from './redact.js';
export { personalValues, scrubText, valuesToScrub } from './scrubText.js';
export { STATE_RELOG_MS, stateLog, stateLogger } from './stateLog.js';
export type { Condition, StateLoggerSpec } from './stateLog.js';
export { waitLog } from './waitLog.js';
export type { WaitLog, WaitLogSpec, Waiting } from './waitLog.js';
