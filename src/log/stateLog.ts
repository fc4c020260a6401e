import type { Logger } from 'pino';

/** A lasting condition as seen now: since when, what is wrong, and fields of this sighting. */
export interface Condition {
  since: string;
  problem: string;
  /** Fields this line carries beside the spec's (the job that met it). */
  fields?: Record<string, unknown>;
}

/** While a state lasts, a summary is said this often, where nothing asks for another pace. */
export const STATE_RELOG_MS = 15 * 60_000;

export interface StateLoggerSpec {
  logger: Logger;
  level: 'warn' | 'error';
  /** While the condition lasts, it is said again this often. */
  relogMs: number;
  now: () => number;
  /** The lines: when it starts (or is said again) and when it ends. */
  lines: { down(condition: Condition, again: boolean): string; back(since: string): string };
  /** Fields every line carries (a code the operator can search for). */
  fields?: Record<string, unknown>;
  /** The field that carries when it started (`since` unless named). */
  sinceField?: string;
}

export interface StateLogSpec extends StateLoggerSpec {
  current: () => Condition | undefined;
}

/**
 * Logs a condition as a state, not per failure: one line when it starts, one every `relogMs`
 * while it lasts, one at info when it ends. The operations that meet it log it only at debug,
 * so an outage of hours is a few lines, not one per pull and job. The answer is told the
 * condition as seen now (undefined: it holds no more) whenever there is news of it.
 */
export function stateLogger(spec: StateLoggerSpec): (condition: Condition | undefined) => void {
  let said: { since: string; at: number } | undefined;
  const sinceField = spec.sinceField ?? 'since';
  return (condition) => {
    const now = spec.now();
    if (condition === undefined) {
      if (said !== undefined)
        spec.logger.info({ ...spec.fields, [sinceField]: said.since }, spec.lines.back(said.since));
      said = undefined;
      return;
    }
    if (said !== undefined && now - said.at < spec.relogMs) return;
    const again = said !== undefined;
    const since = said?.since ?? condition.since;
    spec.logger[spec.level](
      { ...spec.fields, ...condition.fields, [sinceField]: since },
      spec.lines.down(condition, again),
    );
    said = { since, at: now };
  };
}

/**
 * A stateLogger that looks at the condition itself (`current`): call the answer as often as
 * the condition should be looked at.
 */
export function stateLog(spec: StateLogSpec): () => void {
  const tell = stateLogger(spec);
  return () => tell(spec.current());
}
