import type { WebhookFormat } from '../config/alertsSchema.js';
import type { AlertEvent } from './watch.js';

/** One line a person reads first: what and since when. */
export function headline(event: AlertEvent): string {
  const what = event.state === 'firing' ? 'FIRING' : 'RESOLVED';
  return `homecare-sync ${what}: ${event.alert} — ${event.summary} (since ${event.since})`;
}

/**
 * The webhook's JSON body. `generic` is design.md's `{state, alert, summary, since, details}`;
 * Slack and Mattermost incoming webhooks take `{text}`; a Teams incoming webhook takes a
 * MessageCard (`summary`, `text`, a theme colour: red firing, green resolved).
 */
export function webhookBody(event: AlertEvent, format: WebhookFormat): Record<string, unknown> {
  switch (format) {
    case 'generic':
      return { ...event };
    case 'slack':
    case 'mattermost':
      return { text: headline(event) };
    case 'teams':
      return {
        '@type': 'MessageCard',
        '@context': 'https://schema.org/extensions',
        summary: headline(event),
        themeColor: event.state === 'firing' ? 'D93F0B' : '2EA043',
        title: `homecare-sync: ${event.alert} ${event.state}`,
        text: `${event.summary} (since ${event.since})`,
      };
  }
}
