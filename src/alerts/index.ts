/**
 * Interface: the operator's alerts. States read from the readiness checks fire once when they
 * start and once when they clear, sent to a webhook beside the work, never in its way.
 */
import type { Logger } from 'pino';
import type { AlertsConfig } from '../config/alertsSchema.js';
import type { Readiness } from '../http/readiness.js';
import type { Clock } from '../shared/clock.js';
import { conditionsOf, type AlertCounts } from './conditions.js';
import { createNotifier, type AlertChannel } from './notifier.js';
import { alertWatch, type AlertEvent } from './watch.js';
import { mailChannel } from './mail.js';
import { webhookChannel } from './webhook.js';

export type { AlertEvent } from './watch.js';

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
}

export interface Alerts {
  /** Looks at the states now and sends what changed; answers what it sent. */
  check(): AlertEvent[];
  /** Resolves once what was sent so far went out (or gave up). */
  idle(): Promise<void>;
  stop(): void;
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
  const watch = alertWatch(digestMs);
  const notifier = createNotifier({
    channels: deps.channels ?? channelsOf(deps.config),
    retry: ALERT_RETRY,
    logger: deps.logger,
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
    stop: () => notifier.stop(),
  };
}
