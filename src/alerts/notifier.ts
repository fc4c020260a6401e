import { setTimeout as sleepFor } from 'node:timers/promises';
import type { Logger } from 'pino';
import { retryDelay, type RetryPolicy } from '../platform/backoff.js';
import type { AlertEvent } from './watch.js';

/** Where alerts go: a webhook, a mail server; rejects when this try did not get through. */
export type AlertChannel = { name: string; send: (event: AlertEvent) => Promise<void> };

/** The most alerts waiting to go out; the oldest go first when more come (a digest follows). */
const MOST_WAITING = 100;

export interface NotifierDeps {
  channels: readonly AlertChannel[];
  retry: RetryPolicy;
  logger: Logger;
  random?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Sends alerts beside the work, never in its way: `notify` only queues. Each channel has a lane
 * of its own, which sends its alerts in order with back-off between tries, so a mail server
 * that is down delays no webhook. Kept in memory, not in the queue's table: an alert about a
 * full disk must not wait for the disk, and one about an unreachable database must not need it.
 * A process that stops loses what it had not sent; the state is observed again at the next
 * start and fires again if it still holds.
 */
export function createNotifier(deps: NotifierDeps) {
  const { retry, logger } = deps;
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? sleepFor;
  let stopped = false;

  async function deliver(event: AlertEvent, channel: AlertChannel): Promise<void> {
    const about = { alert: event.alert, state: event.state, channel: channel.name };
    for (let attempt = 1; !stopped; attempt += 1) {
      try {
        await channel.send(event);
        logger.info(about, `alert sent: ${event.alert} ${event.state}`);
        return;
      } catch (error) {
        const wait = retryDelay(retry, attempt + 1, random);
        const reason = error instanceof Error ? error.message : String(error);
        if (wait === undefined) {
          logger.warn({ ...about, reason }, `alert not sent after ${attempt} tries: ${reason}`);
          return;
        }
        await sleep(wait);
      }
    }
  }

  function lane(channel: AlertChannel) {
    const waiting: AlertEvent[] = [];
    let running: Promise<void> | undefined;
    async function drain(): Promise<void> {
      for (let next = waiting.shift(); next !== undefined && !stopped; next = waiting.shift()) {
        await deliver(next, channel);
      }
      running = undefined;
    }
    return {
      push(event: AlertEvent): void {
        waiting.push(event);
        const over = waiting.length - MOST_WAITING;
        if (over > 0) {
          waiting.splice(0, over);
          logger.warn(
            { dropped: over, channel: channel.name },
            `alerts: ${over} waiting alert(s) to ${channel.name} dropped, more kept coming`,
          );
        }
        running ??= drain();
      },
      idle: (): Promise<void> => running ?? Promise.resolve(),
    };
  }

  const lanes = deps.channels.map(lane);
  return {
    notify(event: AlertEvent): void {
      for (const each of lanes) each.push(event);
    },
    /** Resolves once every alert queued so far went out or gave up, on every channel. */
    idle: async (): Promise<void> => void (await Promise.all(lanes.map((each) => each.idle()))),
    stop(): void {
      stopped = true;
    },
  };
}
