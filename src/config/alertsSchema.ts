import { z } from 'zod';
import { integer, nonEmpty } from './fields.js';
import { UNREAD_SECRET } from './secrets.js';

/** The chat tools whose webhook body the alerts know how to shape. */
export const WEBHOOK_FORMATS = ['generic', 'teams', 'slack', 'mattermost'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/**
 * A URL that may be a secret: it may come from `<key>File`, is masked wherever the config is
 * shown, and a read-only command that did not read it sees a placeholder, which is not checked.
 */
function secretUrl(protocols: readonly string[], expected: string) {
  return nonEmpty.superRefine((url, ctx) => {
    if (url === UNREAD_SECRET) return;
    const protocol = URL.canParse(url) ? new URL(url).protocol : undefined;
    if (protocol !== undefined && protocols.includes(protocol)) return;
    ctx.addIssue({ code: 'custom', message: `expected ${expected}` });
  });
}

/** The secret `key` must be given, inline or from `<key>File` (read into `key` before this). */
function requireSecret(key: string) {
  return (holder: Record<string, unknown>, ctx: z.RefinementCtx) => {
    if (holder[key] !== undefined) return;
    ctx.addIssue({ code: 'custom', path: [key], message: `required: set ${key} (or ${key}File)` });
  };
}

/** Slack, Teams and Mattermost put the key in the webhook's path: the whole URL is a secret. */
const webhookSchema = z
  .strictObject({
    url: secretUrl(['http:', 'https:'], 'an http:// or https:// URL').optional(),
    urlFile: nonEmpty.optional(),
    format: z.enum(WEBHOOK_FORMATS).default('generic'),
    timeoutMs: integer(100, 10_000, 120_000),
  })
  .superRefine(requireSecret('url'));

const mailAddress = z
  .string()
  .regex(/^[^\s@<>,]+@[^\s@<>,]+$/, 'expected one mail address, such as it@example.com');

/** The SMTP URL carries the login (`smtp://user:password@mail.example:587`): a secret. */
const mailSchema = z
  .strictObject({
    smtp: secretUrl(
      ['smtp:', 'smtps:'],
      'an smtp:// or smtps:// URL, such as smtp://user:password@mail.example:587',
    ).optional(),
    smtpFile: nonEmpty.optional(),
    from: mailAddress,
    to: z.array(mailAddress).min(1, 'name at least one address'),
    timeoutMs: integer(100, 10_000, 120_000),
  })
  .superRefine(requireSecret('smtp'));

/**
 * `alerts` (design.md): each state fires once when it starts and once when it clears.
 * Optional; without a channel nothing is sent (the log and /metrics still tell).
 */
export const alertsSchema = z.strictObject({
  webhook: webhookSchema.optional(),
  mail: mailSchema.optional(),
  /** How often the states are looked at. */
  checkSeconds: integer(1, 15, 3_600),
  /** While a state lasts, more of its events (dead letters, rejected files) go out in one digest this often. */
  digestMinutes: integer(1, 60, 24 * 60),
});

export type AlertsConfig = z.infer<typeof alertsSchema>;

/** Whether the config names somewhere to send alerts: without, none are looked for. */
export function alertsWanted(alerts: AlertsConfig | undefined): alerts is AlertsConfig {
  return alerts?.webhook?.url !== undefined || alerts?.mail?.smtp !== undefined;
}
