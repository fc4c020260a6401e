import type { Transporter } from 'nodemailer';
import { headline } from './format.js';
import type { AlertChannel } from './notifier.js';
import type { AlertEvent } from './watch.js';

export interface MailSettings {
  /** `smtp://` or `smtps://`, with the login in it when the server wants one. */
  smtp: string;
  from: string;
  to: readonly string[];
  /** How long one mail may take, from the connection to the server's last answer. */
  timeoutMs: number;
}

/** The mail's text: the headline, then each field of the generic webhook body on a line. */
export function mailText(event: AlertEvent): string {
  const details = Object.entries(event.details).map(
    ([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`,
  );
  return [
    headline(event),
    '',
    `state: ${event.state}`,
    `alert: ${event.alert}`,
    `since: ${event.since}`,
    `summary: ${event.summary}`,
    ...details,
    '',
  ].join('\n');
}

/**
 * A mail channel: one plain-text mail per alert through the SMTP server the URL names
 * (nodemailer reads its options from the URL, e.g. `?requireTLS=true`). A connection per mail:
 * alerts are few, and a pooled connection would sit idle between them. Each mail has a deadline
 * for all of it (a server answering a byte at a time trips no time-out per pause), and a stop
 * aborts it: nodemailer closes its connection then. The channel's name
 * carries the server's address without the login. nodemailer is loaded at the first mail, not
 * at start: most runs send none.
 */
export function mailChannel(settings: MailSettings): AlertChannel {
  const { protocol, host } = new URL(settings.smtp);
  let transport: Transporter | undefined;
  const transporter = async (): Promise<Transporter> => {
    const { createTransport } = await import('nodemailer');
    return (transport ??= createTransport({
      url: settings.smtp,
      connectionTimeout: settings.timeoutMs,
      greetingTimeout: settings.timeoutMs,
      socketTimeout: settings.timeoutMs,
    }));
  };
  return {
    name: `mail ${protocol}//${host}`,
    async send(event, stop) {
      const signal = AbortSignal.any([stop, AbortSignal.timeout(settings.timeoutMs)]);
      try {
        await (
          await transporter()
        ).sendMail({
          from: settings.from,
          to: [...settings.to],
          subject: headline(event),
          text: mailText(event),
          signal,
        });
      } catch (error) {
        if (!signal.aborted || stop.aborted) throw error;
        throw new Error(
          `the mail server ${host} did not take the mail within alerts.mail.timeoutMs (${settings.timeoutMs} ms)`,
          { cause: error },
        );
      }
    },
    close: () => Promise.resolve(transport?.close()),
  };
}
