import { createServer, type AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { mailChannel } from '../../../src/alerts/mail.js';
import { createNotifier } from '../../../src/alerts/notifier.js';
import type { AlertEvent } from '../../../src/alerts/watch.js';
import { webhookChannel } from '../../../src/alerts/webhook.js';
import { alertsSchema } from '../../../src/config/alertsSchema.js';
import { eventually } from '../../support/eventually.js';
import { smtpReceiver } from '../../support/smtpReceiver.js';
import { webhookReceiver } from '../../support/webhookReceiver.js';

const fired: AlertEvent = {
  state: 'firing',
  alert: 'inboxRejected',
  summary: 'ERP messages refused (3 since the start): see the inbox’s .error/ reports',
  since: '2026-03-01T08:00:00.000Z',
  details: { count: 3 },
};

let closing: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

/** A loopback port nothing listens on (taken and given back). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('alert mail', () => {
  it('mails an alert to every address through the SMTP server, logged in as the URL says', async () => {
    const smtp = await smtpReceiver({ login: { user: 'alerts', pass: 'p@ss word/8' } });
    closing.push(() => smtp.close());
    const channel = mailChannel({
      smtp: smtp.url,
      from: 'homecare-sync@example.com',
      to: ['it@example.com', 'oncall@example.com'],
      timeoutMs: 5_000,
    });
    expect(channel.name).toBe(`mail smtp://127.0.0.1:${smtp.port}`);
    await channel.send(fired, new AbortController().signal);

    expect(smtp.mails).toHaveLength(1);
    const [mail] = smtp.mails;
    expect(mail).toMatchObject({
      from: 'homecare-sync@example.com',
      to: ['it@example.com', 'oncall@example.com'],
      user: 'alerts',
      subject: `homecare-sync FIRING: inboxRejected — ${fired.summary} (since ${fired.since})`,
    });
    expect(mail?.text).toContain('\nstate: firing\nalert: inboxRejected\n');
    expect(mail?.text).toContain('\ncount: 3\n');
  });

  it('a wrong login is a failed try, whose reason does not repeat the password', async () => {
    const smtp = await smtpReceiver({ login: { user: 'alerts', pass: 'right-password' } });
    closing.push(() => smtp.close());
    const wrong = smtp.url.replace('right-password', 'wrong-password');
    const channel = mailChannel({
      smtp: wrong,
      from: 'a@example.com',
      to: ['b@example.com'],
      timeoutMs: 5_000,
    });
    const failure = await channel
      .send(fired, new AbortController().signal)
      .catch((error: unknown) => error);
    expect(String(failure)).toMatch(/Invalid login: 535/);
    expect(String(failure)).not.toContain('wrong-password');
    expect(smtp.mails).toEqual([]);
  });

  it('retries a mail server that is down until it is up, and the webhook does not wait for it', async () => {
    const port = await freePort();
    const hook = await webhookReceiver();
    closing.push(() => void hook.server.close());
    let releaseMail: () => void = () => undefined;
    const mailWaits: number[] = [];
    const notifier = createNotifier({
      channels: [
        mailChannel({
          smtp: `smtp://127.0.0.1:${port}`,
          from: 'homecare-sync@example.com',
          to: ['it@example.com'],
          timeoutMs: 5_000,
        }),
        webhookChannel({ url: hook.url, format: 'generic', timeoutMs: 5_000 }),
      ],
      retry: { attempts: 5, baseDelayMs: 10, maxDelayMs: 10 },
      logger: pino({ enabled: false }),
      random: () => 1,
      // Only the mail's lane ever waits (the webhook gets through at once): held until released.
      sleep: (ms) =>
        new Promise<void>((resolve) => {
          mailWaits.push(ms);
          releaseMail = resolve;
        }),
    });
    notifier.notify(fired);
    // notify only queues: nothing was sent yet, and the caller goes on.
    expect(hook.bodies).toEqual([]);
    await eventually('the webhook to get its alert and the mail lane to wait', () =>
      hook.bodies.length > 0 && mailWaits.length > 0 ? true : undefined,
    );
    // The mail server refused the first try and its lane waits; the webhook has its alert.
    expect(hook.bodies).toEqual([fired]);
    expect(mailWaits).toEqual([10]);

    const smtp = await smtpReceiver({ port });
    closing.push(() => smtp.close());
    releaseMail();
    await notifier.idle();
    expect(smtp.mails.map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/^homecare-sync FIRING: inboxRejected/),
    ]);
    expect(hook.bodies).toHaveLength(1);
  });
});

describe('alerts.mail in the config', () => {
  const mail = {
    smtp: 'smtp://mail.local:25',
    from: 'homecare-sync@example.com',
    to: ['it@example.com'],
  };

  it('takes an smtp:// or smtps:// URL, a sender and at least one address', () => {
    expect(alertsSchema.parse({ mail }).mail).toEqual({ ...mail, timeoutMs: 10_000 });
    const smtps = { ...mail, smtp: 'smtps://u:p@mail.example:465' };
    expect(alertsSchema.safeParse({ mail: smtps }).success).toBe(true);
  });

  it('names what is wrong: the URL, an address, no address, a missing smtp', () => {
    const problems = (value: unknown) =>
      (alertsSchema.safeParse({ mail: value }).error?.issues ?? []).map(
        (issue) => `${issue.path.join('.')}: ${issue.message}`,
      );
    expect(problems({ ...mail, smtp: 'http://mail.local' })).toEqual([
      'mail.smtp: expected an smtp:// or smtps:// URL, such as smtp://user:password@mail.example:587',
    ]);
    expect(problems({ ...mail, to: ['it@example.com, boss@example.com'] })).toEqual([
      'mail.to.0: expected one mail address, such as it@example.com',
    ]);
    expect(problems({ ...mail, to: [] })).toEqual(['mail.to: name at least one address']);
    expect(problems({ from: mail.from, to: mail.to })).toEqual([
      'mail.smtp: required: set smtp (or smtpFile)',
    ]);
  });

  it('a server that greets a byte at a time is cut at the deadline, and a stop closes its connection at once', async () => {
    const sockets: { closed: boolean }[] = [];
    const server = createServer((socket) => {
      const seen = { closed: false };
      sockets.push(seen);
      socket.on('close', () => (seen.closed = true));
      socket.on('error', () => undefined);
      // "220 ..." a byte every 100 ms: never quiet long, never done within the deadline.
      const greeting = '220 slow.example ESMTP\r\n'.repeat(50);
      let at = 0;
      const trickle = setInterval(() => socket.write(greeting.charAt(at++)), 100);
      socket.on('close', () => clearInterval(trickle));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closing.push(() => void server.close());
    const { port } = server.address() as AddressInfo;
    const channel = mailChannel({
      smtp: `smtp://127.0.0.1:${port}`,
      from: 'a@example.com',
      to: ['b@example.com'],
      timeoutMs: 1_000,
    });
    const started = performance.now();
    const failure = await channel
      .send(fired, new AbortController().signal)
      .catch((error: unknown) => error);
    expect(String(failure)).toContain('did not take the mail within alerts.mail.timeoutMs');
    expect(performance.now() - started).toBeLessThan(3_000);
    await eventually('the first connection closed', () => sockets[0]?.closed);

    const notifier = createNotifier({
      channels: [channel],
      retry: { attempts: 5, baseDelayMs: 10, maxDelayMs: 10 },
      logger: pino({ enabled: false }),
    });
    notifier.notify(fired);
    await eventually('the second connection', () => sockets.length === 2);
    const unsent = await notifier.stop();
    expect(unsent.get(channel.name)).toEqual([fired]);
    await eventually('the second connection closed by the stop', () => sockets[1]?.closed);
  });
});
