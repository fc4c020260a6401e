import type { Logger } from 'pino';
import { STATE_RELOG_MS, stateLogger, type Condition } from './stateLog.js';

/** One thing that waits (a queue job, a pulled list) as it failed now. */
export interface Waiting {
  /** The cause it waits for: the things that wait for one cause are one state. */
  cause: string;
  /** What waits, named so that its next failure or its success finds it again. */
  member: string;
  level: 'warn' | 'error';
  /** What this failure says, for the first line and the summaries. */
  problem: string;
  fields: Record<string, unknown>;
  /** When it is tried again (epoch ms); without news STATE_RELOG_MS after, it is let go. */
  dueAt?: number;
}

export interface WaitLogSpec {
  logger: Logger;
  now: () => number;
  /** The lines of one cause's state: `count` things wait; `again`: a summary. */
  lines: (cause: string) => {
    down(problem: string, count: number, again: boolean): string;
    back(since: string): string;
  };
  relogMs?: number;
  /** The field every line of a state names its cause by (`cause` unless named). */
  causeField?: string;
  /** Hears a cause's state end (its line at info said), at `spec.now()`. */
  ended?: (cause: string) => void;
}

export interface WaitLog {
  /** It failed for an expected reason and waits; the first of its cause says so. */
  waits(waiting: Waiting): void;
  /** It went through, or waits no more: the last of its cause ends that state. */
  ended(member: string): void;
}

/** How often the things no one heard of since they were due are let go (see `sweep`). */
const SWEEP_MS = 60_000;

interface State {
  tell: (condition: Condition | undefined) => void;
  since: string;
  /** What waits, each with when it is due again (Infinity: kept until it ends). */
  members: Map<string, number>;
}

/**
 * Things that wait for one cause, logged as one state (design.md #27.7): one line at warn when
 * the first meets it, a summary every STATE_RELOG_MS while they still meet it, one line at info
 * when the last went through. Each failure itself is the caller's debug line, so a thousand
 * hand-overs waiting for the ERP, or every list of a platform answering 503, are a few lines,
 * not one per try. Built on the state logger (stateLog.ts).
 *
 * A thing that goes away without news (a queue job superseded, or dropped by another process)
 * is let go once it is STATE_RELOG_MS overdue, at the next news of any.
 */
export function waitLog(spec: WaitLogSpec): WaitLog {
  const relogMs = spec.relogMs ?? STATE_RELOG_MS;
  const states = new Map<string, State>();
  let sweptAt = spec.now();

  function start(cause: string, level: 'warn' | 'error'): State {
    const lines = spec.lines(cause);
    const members = new Map<string, number>();
    const tell = stateLogger({
      logger: spec.logger,
      level,
      relogMs,
      now: spec.now,
      fields: { [spec.causeField ?? 'cause']: cause },
      lines: {
        down: ({ problem }, again) => lines.down(problem, members.size, again),
        back: (since) => lines.back(since),
      },
    });
    const state = { tell, since: new Date(spec.now()).toISOString(), members };
    states.set(cause, state);
    return state;
  }

  function end(cause: string, state: State): void {
    state.tell(undefined);
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

  return {
    waits(waiting) {
      const { cause, member } = waiting;
      leave(member, cause);
      const state = states.get(cause) ?? start(cause, waiting.level);
      state.members.set(member, waiting.dueAt ?? Number.POSITIVE_INFINITY);
      const fields = { ...waiting.fields, waiting: state.members.size };
      state.tell({ since: state.since, problem: waiting.problem, fields });
      sweep();
    },
    ended(member) {
      leave(member);
      sweep();
    },
  };
}
