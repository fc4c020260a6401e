/**
 * Mechanism: logging (pino), and the one masking of personal values and secrets every output
 * uses (maskPersonal), file names reduced to labels (fileLabel).
 */
export { createLogger } from './logger.js';
export type { Logger, LoggerOptions } from './logger.js';
export { REDACTED, isSensitiveKey } from './sensitiveKeys.js';
export { maskPersonal, type PersonalValues } from './personal.js';
export { maskAnswer } from './answers.js';
export { fileLabel, fileOfMessage, LABEL, messageLabel } from './fileLabel.js';
export { personalValues, scrubbedFromText, scrubText, valuesToScrub } from './scrubText.js';
export { STATE_RELOG_MS, stateLog } from './stateLog.js';
export type { Sighting, StateLines, StateLog, StateLogSpec } from './stateLog.js';
