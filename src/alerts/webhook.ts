import { Agent, request } from 'undici';
import type { WebhookFormat } from '../config/alertsSchema.js';
import { webhookBody } from './format.js';
import type { AlertChannel } from './notifier.js';

export interface WebhookSettings {
  url: string;
  format: WebhookFormat;
  /** How long one send may take, from the connection to the answer's last byte. */
  timeoutMs: number;
}

/** Most of an answer read before it is dropped: what the receiver says is not kept anyway. */
const ANSWER_LIMIT_BYTES = 64 * 1024;

/**
 * The URL without the login it carries, and that login as a Basic `Authorization` header.
 * fetch and undici refuse or drop a login in the URL; a receiver behind Basic auth (a reverse
 * proxy in front of a ticket system) is given one that way, as curl and a browser would.
 */
export function webhookTarget(url: string): { url: string; authorization?: string } {
  const parsed = new URL(url);
  if (parsed.username === '' && parsed.password === '') return { url };
  const login = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
  parsed.username = '';
  parsed.password = '';
  return {
    url: parsed.toString(),
    authorization: `Basic ${Buffer.from(login, 'utf8').toString('base64')}`,
  };
}

/**
 * A webhook channel: one JSON POST per alert, over connections of its own (closed at `close`,
 * so a receiver that holds one open keeps no stop waiting). Each send has a deadline for all of
 * it, headers and body: a receiver trickling its answer a byte at a time is cut off like one
 * that never answers. A redirect is not followed (an answer that asks to fetch elsewhere is a
 * failed try), and what the receiver answers is read and dropped.
 */
export function webhookChannel(settings: WebhookSettings): AlertChannel {
  const target = webhookTarget(settings.url);
  const { origin } = new URL(target.url);
  const dispatcher = new Agent({
    connections: 1,
    headersTimeout: settings.timeoutMs,
    bodyTimeout: settings.timeoutMs,
    connect: { timeout: settings.timeoutMs },
  });
  return {
    name: `webhook ${origin}`,
    async send(event, stop) {
      const signal = AbortSignal.any([stop, AbortSignal.timeout(settings.timeoutMs)]);
      try {
        const answer = await request(target.url, {
          dispatcher,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(target.authorization === undefined ? {} : { authorization: target.authorization }),
          },
          body: JSON.stringify(webhookBody(event, settings.format)),
          signal,
        });
        await answer.body.dump({ limit: ANSWER_LIMIT_BYTES, signal });
        if (answer.statusCode < 200 || answer.statusCode >= 300) {
          throw new Error(`the webhook at ${origin} answered HTTP ${answer.statusCode}`);
        }
      } catch (error) {
        if (!signal.aborted || stop.aborted) throw error;
        throw new Error(
          `the webhook at ${origin} did not answer within alerts.webhook.timeoutMs (${settings.timeoutMs} ms)`,
          { cause: error },
        );
      }
    },
    close: () => dispatcher.destroy(),
  };
}
