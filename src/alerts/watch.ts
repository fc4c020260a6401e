import { maskPersonal } from '../log/index.js';

/**
 * The states an operator is told about (design.md, `alerts`): each fires once when it starts
 * and once when it clears, whatever happens in between, so one outage is one alert.
 */
export const ALERT_NAMES = [
  'platformUnreachable',
  'erpUnreachable',
  'diskFull',
  'deadLetter',
  'inboxRejected',
  'checkpointStuck',
] as const;
export type AlertName = (typeof ALERT_NAMES)[number];

/** One event of a state that has a name (a refused file), with the `count` it brought. */
export interface NamedEvent {
  count: number;
  name: string;
}

/** One state as observed now. `count` grows with each event the state is made of. */
export interface Condition {
  active: boolean;
  summary: string;
  count?: number;
  /** The latest of its events that have a name, oldest first (a bounded list). */
  events?: readonly NamedEvent[];
}

export type Conditions = Record<AlertName, Condition>;

export interface AlertEvent {
  state: 'firing' | 'resolved';
  alert: AlertName;
  summary: string;
  /** When the state started. */
  since: string;
  details: Record<string, unknown>;
}

interface Firing {
  since: Date;
  notifiedAt: Date;
  notifiedCount: number;
}

/**
 * What the states looked like when a watch was last asked (the firing ones and the counts
 * told), for a watch that takes over (a reload): a state firing then does not fire again, one
 * that cleared meanwhile is resolved.
 */
export interface WatchMemory {
  firing: ReadonlyMap<AlertName, Firing>;
  told: ReadonlyMap<AlertName, number>;
}

/** The most names an alert lists; the count says how many there were. */
const MOST_NAMED = 20;

/** The names of the events after the `told` count, for an alert's summary and details. */
function namedSince(condition: Condition, told: number): string[] {
  const names = (condition.events ?? []).filter((e) => e.count > told).map((e) => e.name);
  return names.slice(-MOST_NAMED);
}

/** The summary with the names it tells, and the details that carry them. */
function listing(summary: string, names: readonly string[]) {
  if (names.length === 0) return { summary, named: {} };
  return { summary: `${summary}: ${names.join(', ')}`, named: { names: [...names] } };
}

/**
 * Turns observations into alert events: `firing` when a state starts, `resolved` when it
 * clears, and while it lasts one digest (`firing` again, with `repeats`) per `digestMs` when
 * more events of it came (more dead letters, more rejected files), naming the events that
 * have a name (the refused files). A stuck checkpoint is held
 * back while the platform is unreachable: that outage is its cause and has its own alert.
 */
export function alertWatch(digestMs: number, memory?: WatchMemory) {
  const firing = new Map<AlertName, Firing>(memory?.firing);
  // The count each alert last told of, kept after it resolved: a new firing names only new events.
  const told = new Map<AlertName, number>(memory?.told);

  function started(alert: AlertName, condition: Condition, now: Date): AlertEvent {
    const count = condition.count ?? 0;
    const { summary, named } = listing(
      condition.summary,
      namedSince(condition, told.get(alert) ?? 0),
    );
    firing.set(alert, { since: now, notifiedAt: now, notifiedCount: count });
    told.set(alert, count);
    const details = condition.count === undefined ? {} : { count: condition.count, ...named };
    return { state: 'firing', alert, summary, since: now.toISOString(), details };
  }

  function digest(alert: AlertName, condition: Condition, now: Date): AlertEvent | undefined {
    const state = firing.get(alert);
    const count = condition.count ?? 0;
    if (state === undefined || count <= state.notifiedCount) return undefined;
    if (now.getTime() - state.notifiedAt.getTime() < digestMs) return undefined;
    const repeats = count - state.notifiedCount;
    const at = state.notifiedAt.toISOString();
    const more = `${condition.summary} (${repeats} more since ${at})`;
    const { summary, named } = listing(more, namedSince(condition, state.notifiedCount));
    firing.set(alert, { ...state, notifiedAt: now, notifiedCount: count });
    told.set(alert, count);
    return {
      state: 'firing',
      alert,
      summary,
      since: state.since.toISOString(),
      details: { count, repeats, ...named },
    };
  }

  function cleared(alert: AlertName, condition: Condition): AlertEvent | undefined {
    const state = firing.get(alert);
    if (state === undefined) return undefined;
    firing.delete(alert);
    return {
      state: 'resolved',
      alert,
      summary: condition.summary,
      since: state.since.toISOString(),
      details: {},
    };
  }

  return {
    memory: (): WatchMemory => ({ firing: new Map(firing), told: new Map(told) }),
    /**
     * The events of this look, each masked as every output is (maskPersonal): an alert goes to
     * a chat or a mailbox, out of `forget`'s reach, and its texts come from the daemon's states.
     */
    observe(now: Date, conditions: Conditions): AlertEvent[] {
      const events: AlertEvent[] = [];
      for (const alert of ALERT_NAMES) {
        const condition = conditions[alert];
        const heldBack =
          alert === 'checkpointStuck' &&
          conditions.platformUnreachable.active &&
          !firing.has(alert);
        const event = !condition.active
          ? cleared(alert, condition)
          : firing.has(alert)
            ? digest(alert, condition, now)
            : heldBack
              ? undefined
              : started(alert, condition, now);
        if (event !== undefined) events.push(maskPersonal(event));
      }
      return events;
    },
  };
}
