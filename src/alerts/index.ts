/**
 * Interface: the operator's alerts. States read from the readiness checks fire once when they
 * start and once when they clear, sent to a webhook beside the work, never in its way.
 */
import type { Logger } from 'pino';
import type { AlertsConfig } from '../config/alertsSchema.js';
import type { Readiness } from '../http/readiness.js';
import type { Clock } from '../shared/clock.js';
import { conditionsOf, type AlertCounts } from './conditions.js';
import { createNotifier, type AlertChannel, type UnsentAlerts } from './notifier.js';
import { alertWatch, type AlertEvent, type WatchMemory } from './watch.js';
import { mailChannel } from './mail.js';
import { webhookChannel } from './webhook.js';

export type { AlertEvent } from './watch.js';
export type { UnsentAlerts } from './notifier.js';

/** How alert deliveries are retried: a receiver down for a few minutes still gets them. */
const ALERT_RETRY = { attempts: 8, baseDelayMs: 1_000, maxDelayMs: 120_000 };

export interface AlertsDeps {
  config: AlertsConfig;
  readiness: () => Readiness;
  counts: () => AlertCounts;
  clock: Clock;
  logger: Logger;
  /** The channels to send to; by default those the config names. */
  channels?: readonly AlertChannel[];
  /** What the alerts before these knew (a reload): they take over from there. */
  memory?: AlertMemory;
}

/** The states as last seen and the alerts not sent yet: what a reload carries over. */
export interface AlertMemory {
  watch: WatchMemory;
  unsent: UnsentAlerts;
}

export interface Alerts {
  /** Looks at the states now and sends what changed; answers what it sent. */
  check(): AlertEvent[];
  /** Resolves once what was sent so far went out (or gave up). */
  idle(): Promise<void>;
  /** Aborts what is being sent, closes the channels; answers what alerts after these need. */
  stop(): Promise<AlertMemory>;
}

/** The channels the config names: a webhook, mail, or both; each gets every alert. */
function channelsOf(config: AlertsConfig): AlertChannel[] {
  const { webhook, mail } = config;
  const channels: AlertChannel[] = [];
  if (webhook?.url !== undefined) {
    const { url, format, timeoutMs } = webhook;
    channels.push(webhookChannel({ url, format, timeoutMs }));
  }
  if (mail?.smtp !== undefined) {
    const { smtp, from, to, timeoutMs } = mail;
    channels.push(mailChannel({ smtp, from, to, timeoutMs }));
  }
  return channels;
}

/**
 * The operator's alerts (design.md, `alerts`): the daemon calls `check` every
 * `alerts.checkSeconds`; each state fires once when it starts and once when it clears, and
 * more events of a lasting state go out as one digest per `alerts.digestMinutes`.
 */
export function createAlerts(deps: AlertsDeps): Alerts {
  const digestMs = deps.config.digestMinutes * 60_000;
  const watch = alertWatch(digestMs, deps.memory?.watch);
  const notifier = createNotifier({
    channels: deps.channels ?? channelsOf(deps.config),
    retry: ALERT_RETRY,
    logger: deps.logger,
    now: () => deps.clock.now().getTime(),
    ...(deps.memory === undefined ? {} : { unsent: deps.memory.unsent }),
  });
  return {
    check() {
      const now = deps.clock.now();
      const conditions = conditionsOf(deps.readiness(), deps.counts(), now.getTime(), digestMs);
      const events = watch.observe(now, conditions);
      for (const event of events) notifier.notify(event);
      return events;
    },
    idle: () => notifier.idle(),
    stop: async () => ({ watch: watch.memory(), unsent: await notifier.stop() }),
  };
}
