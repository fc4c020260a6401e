import type { Server } from 'node:http';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookBody } from '../../../src/alerts/format.js';
import { createNotifier } from '../../../src/alerts/notifier.js';
import type { AlertEvent } from '../../../src/alerts/watch.js';
import { webhookChannel } from '../../../src/alerts/webhook.js';
import { webhookReceiver } from '../../support/webhookReceiver.js';

const event: AlertEvent = {
  state: 'firing',
  alert: 'erpUnreachable',
  summary: 'the ERP is unreachable: outbox not writable',
  since: '2026-03-01T08:00:00.000Z',
  details: {},
};

let open: Server | undefined;
afterEach(() => open?.close());

describe('alert webhooks', () => {
  it('posts the generic body design.md names, and the Teams, Slack and Mattermost shapes', () => {
    expect(webhookBody(event, 'generic')).toEqual(event);
    expect(webhookBody(event, 'slack')).toEqual({
      text: 'homecare-sync FIRING: erpUnreachable — the ERP is unreachable: outbox not writable (since 2026-03-01T08:00:00.000Z)',
    });
    expect(webhookBody(event, 'mattermost')).toEqual(webhookBody(event, 'slack'));
    expect(webhookBody(event, 'teams')).toMatchObject({
      '@type': 'MessageCard',
      themeColor: 'D93F0B',
      title: 'homecare-sync: erpUnreachable firing',
    });
  });

  it('retries a receiver that failed, without the caller waiting, and gives up after the tries', async () => {
    const hook = await webhookReceiver([503, 500]);
    open = hook.server;
    const waits: number[] = [];
    const notifier = createNotifier({
      channels: [webhookChannel({ url: hook.url, format: 'generic', timeoutMs: 2_000 })],
      retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 10 },
      logger: pino({ enabled: false }),
      random: () => 1,
      sleep: (ms) => Promise.resolve(void waits.push(ms)),
    });
    notifier.notify(event);
    expect(hook.bodies).toEqual([]);
    await notifier.idle();
    expect(hook.bodies).toEqual([event, event, event]);
    expect(waits).toEqual([10, 10]);

    const failing = await webhookReceiver([500, 500, 500, 500]);
    const gaveUp = createNotifier({
      channels: [webhookChannel({ url: failing.url, format: 'slack', timeoutMs: 2_000 })],
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 1 },
      logger: pino({ enabled: false }),
      sleep: () => Promise.resolve(),
    });
    gaveUp.notify(event);
    await gaveUp.idle();
    expect(failing.bodies).toHaveLength(2);
    failing.server.close();
  });

  it('does not follow a redirect: a 302 is a failed try', async () => {
    const hook = await webhookReceiver([302]);
    open = hook.server;
    const channel = webhookChannel({ url: hook.url, format: 'generic', timeoutMs: 2_000 });
    await expect(channel.send(event, new AbortController().signal)).rejects.toThrow(
      'answered HTTP 302',
    );
  });
});
