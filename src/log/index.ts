/**
 * Mechanism: logging (pino) with secrets and personal values redacted by key.
 */
export { createLogger } from './logger.js';
export type { Logger, LoggerOptions } from './logger.js';
export { REDACTED, isSensitiveKey } from './sensitiveKeys.js';
export { redactJson } from './redact.js';
export { scrubText, valuesToScrub } from './scrubText.js';
