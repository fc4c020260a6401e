import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Logger } from 'pino';
import { stateLog, type StateLog } from '../log/index.js';
import { retryDelay, type RetryPolicy } from '../platform/backoff.js';
import type { AlertEvent } from './watch.js';

/**
 * Where alerts go: a webhook, a mail server. `send` rejects when this try did not get through,
 * and gives up when `stop` aborts; `close` lets go of its connections.
 */
export interface AlertChannel {
  name: string;
  send: (event: AlertEvent, stop: AbortSignal) => Promise<void>;
  close?: () => Promise<void>;
}

/** The most alerts waiting to go out; the oldest go first when more come (a digest follows). */
const MOST_WAITING = 100;

/** The alerts a stopped notifier had not sent, by channel name, the oldest first. */
export type UnsentAlerts = ReadonlyMap<string, readonly AlertEvent[]>;

export interface NotifierDeps {
  channels: readonly AlertChannel[];
  /** What a notifier before this one left unsent (a reload): sent first, by the same channel. */
  unsent?: UnsentAlerts;
  retry: RetryPolicy;
  logger: Logger;
  /** Epoch ms, for the channels' failures as states. */
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<unknown>;
}

export interface Notifier {
  notify(event: AlertEvent): void;
  /** Resolves once every alert queued so far went out or gave up, on every channel. */
  idle(): Promise<void>;
  /**
   * Gives up at once: the sends under way are aborted, the channels' connections closed.
   * Answers the alerts not sent yet, for a notifier that takes over (a reload).
   */
  stop(): Promise<UnsentAlerts>;
}

/** A sleep cut short by `stop` ends early, as asked: its AbortError is no fault. */
const realSleep = (ms: number, signal: AbortSignal) =>
  sleepFor(ms, undefined, { signal }).catch(() => undefined);

/** Each channel's failures as one state: a warning when its sends start failing, info when one passes. */
function channelLog(deps: NotifierDeps): StateLog {
  return stateLog({
    logger: deps.logger,
    now: deps.now ?? Date.now,
    causeField: 'channel',
    lines: (name) => ({
      down: ({ problem }, again) =>
        `${again ? 'still: ' : ''}alerts: ${name} cannot take alerts: ${problem}; they wait and are tried again`,
      back: (since) => `alerts: ${name} takes alerts again (failing since ${since})`,
    }),
  });
}

/**
 * Sends alerts beside the work, never in its way: `notify` only queues. Each channel has a lane
 * of its own, which sends its alerts in order with back-off between tries, so a mail server
 * that is down delays no webhook; a channel that fails is said once, as a state. Kept in
 * memory, not in the queue's table: an alert about a full disk must not wait for the disk, and
 * one about an unreachable database must not need it. A process that stops loses what it had
 * not sent; the state is observed again at the next start and fires again if it still holds.
 */
export function createNotifier(deps: NotifierDeps): Notifier {
  const { retry, logger } = deps;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? realSleep;
  const stopping = new AbortController();
  const { signal } = stopping;
  const failing = channelLog(deps);

  async function deliver(event: AlertEvent, channel: AlertChannel): Promise<boolean> {
    const about = { alert: event.alert, state: event.state, channel: channel.name };
    const since = new Date((deps.now ?? Date.now)()).toISOString();
    for (let attempt = 1; !signal.aborted; attempt += 1) {
      try {
        await channel.send(event, signal);
        failing.ends(channel.name);
        logger.info(about, `alert sent: ${event.alert} ${event.state}`);
        return true;
      } catch (error) {
        if (signal.aborted) return false;
        const reason = error instanceof Error ? error.message : String(error);
        failing.holds({ cause: channel.name, member: channel.name, since, problem: reason });
        const wait = retryDelay(retry, attempt + 1, random);
        if (wait === undefined) {
          logger.warn({ ...about, reason }, `alert not sent after ${attempt} tries: ${reason}`);
          return true;
        }
        await sleep(wait, signal);
      }
    }
    return false;
  }

  function lane(channel: AlertChannel) {
    const waiting: AlertEvent[] = [...(deps.unsent?.get(channel.name) ?? [])];
    let running: Promise<void> | undefined;
    const start = () => {
      if (waiting.length > 0 && !signal.aborted) running ??= drain();
    };
    async function drain(): Promise<void> {
      for (let next = waiting[0]; next !== undefined && !signal.aborted; next = waiting[0]) {
        // Kept waiting while it goes out: a stop hands it on unsent.
        if (await deliver(next, channel)) waiting.shift();
      }
      running = undefined;
    }
    return {
      push(event: AlertEvent): void {
        waiting.push(event);
        const over = waiting.length - MOST_WAITING;
        if (over > 0) {
          waiting.splice(running === undefined ? 0 : 1, over);
          logger.warn(
            { dropped: over, channel: channel.name },
            `alerts: ${over} waiting alert(s) to ${channel.name} dropped, more kept coming`,
          );
        }
        start();
      },
      start,
      idle: (): Promise<void> => running ?? Promise.resolve(),
      unsent: (): [string, AlertEvent[]] => [channel.name, [...waiting]],
      close: async () => {
        await running;
        await channel.close?.();
      },
    };
  }

  const lanes = deps.channels.map(lane);
  for (const each of lanes) each.start();
  return {
    notify(event) {
      for (const each of lanes) each.push(event);
    },
    idle: async () => void (await Promise.all(lanes.map((each) => each.idle()))),
    async stop() {
      stopping.abort();
      await Promise.all(lanes.map((each) => each.close()));
      return new Map(lanes.map((each) => each.unsent()));
    },
  };
}
