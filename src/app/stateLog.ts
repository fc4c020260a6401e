import type { Logger } from 'pino';

/** A lasting condition as seen now: since when, and what is wrong. */
export interface Condition {
  since: string;
  problem: string;
}

export interface StateLogSpec {
  logger: Logger;
  level: 'warn' | 'error';
  /** While the condition lasts, it is said again this often. */
  relogMs: number;
  now: () => number;
  current: () => Condition | undefined;
  /** The lines: when it starts (or is said again) and when it ends. */
  lines: { down(condition: Condition, again: boolean): string; back(since: string): string };
  /** Fields every line carries (a code the operator can search for). */
  fields?: Record<string, unknown>;
  /** The field that carries when it started (`since` unless named). */
  sinceField?: string;
}

/**
 * Logs a condition as a state, not per failure: one line when it starts, one every `relogMs`
 * while it lasts, one at info when it ends. The operations that meet it log it only at debug
 * (their errors are `watched`), so an outage of hours is a few lines, not one per pull and job.
 * Call the answer as often as the condition should be looked at.
 */
export function stateLog(spec: StateLogSpec): () => void {
  let said: { since: string; at: number } | undefined;
  const sinceField = spec.sinceField ?? 'since';
  return () => {
    const condition = spec.current();
    const now = spec.now();
    if (condition === undefined) {
      if (said !== undefined)
        spec.logger.info({ ...spec.fields, [sinceField]: said.since }, spec.lines.back(said.since));
      said = undefined;
      return;
    }
    if (said !== undefined && now - said.at < spec.relogMs) return;
    const again = said !== undefined;
    spec.logger[spec.level](
      { ...spec.fields, [sinceField]: condition.since },
      spec.lines.down(condition, again),
    );
    said = { since: said?.since ?? condition.since, at: now };
  };
}
