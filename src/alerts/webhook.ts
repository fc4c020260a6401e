import { request } from 'undici';
import type { WebhookFormat } from '../config/alertsSchema.js';
import { webhookBody } from './format.js';
import type { AlertChannel } from './notifier.js';

export interface WebhookSettings {
  url: string;
  format: WebhookFormat;
  timeoutMs: number;
}

/**
 * A webhook channel: one JSON POST per alert. A redirect is not followed (an answer that asks
 * to fetch elsewhere is a failed try), and what the receiver answers is read and dropped.
 */
export function webhookChannel(settings: WebhookSettings): AlertChannel {
  const { origin } = new URL(settings.url);
  return {
    name: `webhook ${origin}`,
    async send(event) {
      const answer = await request(settings.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(webhookBody(event, settings.format)),
        headersTimeout: settings.timeoutMs,
        bodyTimeout: settings.timeoutMs,
      });
      await answer.body.dump();
      if (answer.statusCode < 200 || answer.statusCode >= 300) {
        throw new Error(`the webhook at ${origin} answered HTTP ${answer.statusCode}`);
      }
    },
  };
}
