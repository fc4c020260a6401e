import type { Logger } from '../../log/index.js';

/** Told of the unknown fields left out of one message (`inbound.unknownFields: drop`). */
export type DroppedFields = (kind: string, paths: readonly string[]) => void;

/**
 * Fields remembered as logged. Each (kind, field) is logged once per process; past this many a
 * hostile sender could fill the memory with made-up names, so the rest are only counted.
 */
const MAX_REMEMBERED = 1_000;

/**
 * Logs each dropped field once per process, by kind and path, never its value (it may hold
 * patient data). One instance serves the file inbox and the endpoint alike.
 */
export function droppedFieldsLog(logger: Logger): DroppedFields {
  const logged = new Set<string>();
  return (kind, paths) => {
    let unnamed = 0;
    for (const field of paths) {
      const key = `${kind}\u0000${field}`;
      if (logged.has(key)) continue;
      if (logged.size >= MAX_REMEMBERED) unnamed += 1;
      else {
        logged.add(key);
        logger.warn(
          { kind, field },
          'unknown field dropped from ERP messages (inbound.unknownFields: drop); logged once',
        );
      }
    }
    if (unnamed > 0) {
      logger.warn(
        { kind, fields: unnamed },
        `${unnamed} more unknown fields dropped; no longer named one by one`,
      );
    }
  };
}
