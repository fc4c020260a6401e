import type { Logger } from 'pino';

/** While a state lasts, a summary is said this often, where nothing asks for another pace. */
export const STATE_RELOG_MS = 15 * 60_000;

/** One thing meeting a lasting condition, as it does now. */
export interface Sighting {
  /** The condition: the things meeting one cause are one state ('' where there is one). */
  cause?: string;
  /** What meets it, named so that its next sighting or its end finds it again ('' unless named). */
  member?: string;
  /** The state's level where this sighting starts it (the spec's unless said). */
  level?: 'warn' | 'error';
  /** What this sighting says, for the first line and the summaries. */
  problem: string;
  /** Since when the condition holds, where the caller knows better than its first sighting. */
  since?: string;
  /** Fields the line of this sighting carries (the job that met it). */
  fields?: Record<string, unknown>;
  /** When it is looked at again (epoch ms); without news `relogMs` after, it is let go. */
  dueAt?: number;
}

/** What one state says: `count` members meet it; `again`: a summary while it lasts. */
export interface StateLines {
  down(state: { problem: string; since: string; count: number }, again: boolean): string;
  back(since: string): string;
  /** Fields every line of this state carries, read at each line (a count that grows). */
  fields?: Record<string, unknown>;
}

export interface StateLogSpec {
  logger: Logger;
  now: () => number;
  lines: (cause: string) => StateLines;
  /** 'warn' unless said. */
  level?: 'warn' | 'error';
  /** STATE_RELOG_MS unless said. */
  relogMs?: number;
  /** Fields every line carries (a code the operator can search for). */
  fields?: Record<string, unknown>;
  /** The field every line of a state names its cause by; none unless named. */
  causeField?: string;
  /** The field that carries how many members meet the state; none unless named. */
  countField?: string;
  /** Hears a state end (its line at info said), at `spec.now()`. */
  ended?: (cause: string) => void;
}

export interface StateLog {
  /** `sighting.member` meets its cause now: the first of a cause starts that state. */
  holds(sighting: Sighting): void;
  /** `member` meets no cause any more: the last of a cause ends that state at info. */
  ends(member?: string): void;
  /** The one condition as seen now (undefined: it holds no more), for a log of one state. */
  tell(condition: Sighting | undefined): void;
}

/** How often the members no one heard of since they were due are let go (see `sweep`). */
const SWEEP_MS = 60_000;

interface State {
  lines: StateLines;
  level: 'warn' | 'error';
  since: string;
  /** When it was said last. */
  saidAt: number;
  /** What meets it, each with when it is due again (Infinity: kept until it ends). */
  members: Map<string, number>;
}

/**
 * Lasting conditions logged as states, not per failure (design.md #27.7): one line when the
 * first member meets a cause, a summary every `relogMs` while members still do, one line at info
 * when the last is through. The operations that meet it log each failure only at debug, so an
 * outage of hours, or a thousand hand-overs waiting for the ERP, are a few lines, not one per
 * try. A condition of one thing (the disk full, the platform unreachable) is one state of one
 * member (`tell`).
 *
 * A member that goes away without news (a queue job superseded, or dropped by another process)
 * is let go once it is `relogMs` overdue, at the next news of any.
 */
export function stateLog(spec: StateLogSpec): StateLog {
  const relogMs = spec.relogMs ?? STATE_RELOG_MS;
  const states = new Map<string, State>();
  let sweptAt = spec.now();

  function fieldsOf(cause: string, state: State): Record<string, unknown> {
    return {
      ...spec.fields,
      ...(spec.causeField === undefined ? {} : { [spec.causeField]: cause }),
      ...state.lines.fields,
    };
  }

  function say(cause: string, state: State, sighting: Sighting, again: boolean): void {
    const count = state.members.size;
    const counted = spec.countField === undefined ? {} : { [spec.countField]: count };
    spec.logger[state.level](
      { ...fieldsOf(cause, state), ...sighting.fields, ...counted, since: state.since },
      state.lines.down({ problem: sighting.problem, since: state.since, count }, again),
    );
    state.saidAt = spec.now();
  }

  function end(cause: string, state: State): void {
    spec.logger.info(
      { ...fieldsOf(cause, state), since: state.since },
      state.lines.back(state.since),
    );
    states.delete(cause);
    spec.ended?.(cause);
  }

  function leave(member: string, staying?: string): void {
    for (const [cause, state] of states) {
      if (cause !== staying && state.members.delete(member) && state.members.size === 0)
        end(cause, state);
    }
  }

  function sweep(): void {
    const at = spec.now();
    if (at - sweptAt < SWEEP_MS) return;
    sweptAt = at;
    for (const [cause, state] of states) {
      for (const [member, due] of state.members) {
        if (at - due > relogMs) state.members.delete(member);
      }
      if (state.members.size === 0) end(cause, state);
    }
  }

  function holds(sighting: Sighting): void {
    const { cause = '', member = '' } = sighting;
    leave(member, cause);
    let state = states.get(cause);
    const fresh = state === undefined;
    if (state === undefined) {
      const since = sighting.since ?? new Date(spec.now()).toISOString();
      const level = sighting.level ?? spec.level ?? 'warn';
      state = { lines: spec.lines(cause), level, since, saidAt: 0, members: new Map() };
      states.set(cause, state);
    }
    state.members.set(member, sighting.dueAt ?? Number.POSITIVE_INFINITY);
    if (fresh || spec.now() - state.saidAt >= relogMs) say(cause, state, sighting, !fresh);
    sweep();
  }

  function ends(member = ''): void {
    leave(member);
    sweep();
  }

  return { holds, ends, tell: (condition) => (condition ? holds(condition) : ends()) };
}
