import { pino } from 'pino';
import type { DestinationStream, LevelWithSilentOrString, Logger } from 'pino';
import { toPlainValue } from './plainValue.js';
import { redactLine } from './redact.js';
import { normaliseSecrets } from './scrubText.js';

export type { Logger };

export interface LoggerOptions {
  level: LevelWithSilentOrString;
  /** Configured secret values (API key, tokens): removed wherever they occur in a line. */
  secrets?: readonly string[];
  /** Where lines go; stdout when absent. */
  destination?: DestinationStream;
}

/**
 * A pino logger writing JSON lines. Redaction works on the finished line (`streamWrite`), so
 * it holds for whatever was logged: the merged object, child loggers' bindings, the message and
 * serialized errors alike. pino's path-based `redact` cannot say "this key at any depth".
 */
export function createLogger(options: LoggerOptions): Logger {
  const secrets = normaliseSecrets(options.secrets ?? []);
  const settings: pino.LoggerOptions = {
    level: options.level,
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: {
      level: (label) => ({ level: label }),
      log: (object) => toPlainValue(object) as Record<string, unknown>,
    },
    serializers: { err: toPlainValue },
    hooks: { streamWrite: (line) => redactLine(line, secrets) },
  };
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}
