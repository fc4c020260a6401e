import type PinoPretty from 'pino-pretty';
import { pino } from 'pino';
import type { DestinationStream, LevelWithSilentOrString, Logger } from 'pino';
import { lazyPackage } from '../shared/lazyPackage.js';
import { toPlainValue } from './plainValue.js';
import { redactLine } from './redact.js';
import { normaliseSecrets } from './scrubText.js';

export type { Logger };

/** Loaded only for pretty lines (a terminal): a container's JSON lines never need it. */
const pinoPretty = lazyPackage<typeof PinoPretty>('pino-pretty');

/** `auto`: human-readable on a terminal, JSON lines otherwise (a container's log collector). */
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export interface LoggerOptions {
  level: LevelWithSilentOrString;
  /**
   * Configured secret values (API key, tokens): removed wherever they occur in a line when they
   * have at least MIN_SCRUBBED_SECRET_CHARS; shorter ones only as a sensitive field's value.
   */
  secrets?: readonly string[];
  /** Where lines go; stdout when absent. */
  destination?: DestinationStream;
  /** `json` unless given; `auto` asks `isTerminal`. */
  format?: LogFormat;
  /** Whether the output is a terminal, for `auto` (the composition root passes stdout's isTTY). */
  isTerminal?: boolean;
}

export function prettyWanted(format: LogFormat, isTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && isTerminal);
}

/**
 * pino-pretty as a plain stream behind our redaction: it receives the finished, redacted JSON
 * line and prints it for a person. Synchronous, so a line is out before the process exits.
 */
function prettyStream(destination: DestinationStream | undefined, colour: boolean) {
  return pinoPretty()({
    colorize: colour,
    translateTime: 'SYS:yyyy-mm-dd HH:MM:ss.l o',
    ignore: 'pid,hostname',
    sync: true,
    ...(destination === undefined ? {} : { destination }),
  });
}

/**
 * A pino logger writing JSON lines, or pretty lines for a person at a terminal. Redaction works
 * on the finished line (`streamWrite`), so it holds for whatever was logged: the merged object,
 * child loggers' bindings, the message and serialized errors alike. pino's path-based `redact`
 * cannot say "this key at any depth".
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
  const terminal = options.isTerminal ?? false;
  if (prettyWanted(options.format ?? 'json', terminal)) {
    return pino(settings, prettyStream(options.destination, terminal));
  }
  return options.destination === undefined ? pino(settings) : pino(settings, options.destination);
}
