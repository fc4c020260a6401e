import { effectiveResourceSettings, type Config } from '../config/index.js';
import { contractFor } from '../contract/index.js';
import { nearestField } from '../shared/nearest.js';
import { PUSH_BACK_KIND_NAMES } from '../pushback/index.js';
import { ACK_KINDS } from '../queue/index.js';
import {
  EVERY_TARGET,
  pause,
  pausesInForce,
  pauseSubject,
  recordOperatorAction,
  resume,
  transaction,
  type Operator,
  type Pause,
  type PauseDirection,
  type Store,
} from '../store/index.js';

/** What may be paused: the resources the config's variant pulls, or the kinds of platform writes. */
export function pauseTargets(config: Config, way: PauseDirection): readonly string[] {
  if (way === 'push') return [...PUSH_BACK_KIND_NAMES, ...ACK_KINDS];
  const contract = contractFor(config.platform.variant, config.platform.paths);
  return effectiveResourceSettings(config, contract).map((settings) => settings.resource);
}

/** A name to pause by: the target, or why it is none (naming the nearest and every one). */
export type CheckedTarget = { ok: true; target: string } | { ok: false; problem: string };

/** `name` when it can be paused (none: the whole direction, EVERY_TARGET). */
export function checkedPauseTarget(
  config: Config,
  way: PauseDirection,
  name: string | undefined,
): CheckedTarget {
  if (name === undefined) return { ok: true, target: EVERY_TARGET };
  const known = pauseTargets(config, way);
  if (known.includes(name)) return { ok: true, target: name };
  const ack = `ack.${name}`;
  const nearest = known.includes(ack) ? ack : nearestField(name, known);
  const what =
    way === 'pull'
      ? `a resource variant ${config.platform.variant} pulls`
      : 'a kind of platform write (queue list shows the kinds)';
  const guess = nearest === undefined ? '.' : `; did you mean ${nearest}?`;
  return { ok: false, problem: `"${name}" is not ${what}${guess} One of: ${known.join(', ')}` };
}

/** How a pause went: `changed` false when it was in force already (since then). */
export interface Paused {
  target: string;
  changed: boolean;
  since: string;
}

/**
 * Pauses the pulls of a resource or the platform writes of a kind (`target`, checked by
 * checkedPauseTarget), kept as the operator action `pause` when it changed anything. The running
 * daemon reads the pause from the database before each pull run and each queue pass.
 */
export function pauseWork(store: Store, way: PauseDirection, target: string, by: Operator): Paused {
  return transaction(store, () => {
    const paused = pause(store, way, target);
    if (paused.changed) {
      recordOperatorAction(store, { action: 'pause', subject: pauseSubject(way, target) }, by);
    }
    return { ...paused, target };
  });
}

/** How a resume went, with the pauses still in force after it. */
export interface Resumed {
  target: string;
  resumed: boolean;
  pauses: Pause[];
}

/** Lifts a pause, kept as the operator action `resume` when one was in force. */
export function resumeWork(
  store: Store,
  way: PauseDirection,
  target: string,
  by: Operator,
): Resumed {
  return transaction(store, () => {
    const resumed = resume(store, way, target);
    if (resumed) {
      recordOperatorAction(store, { action: 'resume', subject: pauseSubject(way, target) }, by);
    }
    return { resumed, target, pauses: pausesInForce(store) };
  });
}
