import { z } from 'zod';
import { WEBHOOK_FORMATS } from '../alerts/format.js';
import { integer, nonEmpty } from './fields.js';
import { UNREAD_SECRET } from './secrets.js';

/**
 * A webhook URL is a secret (Slack, Teams and Mattermost put the key in the path): it may come
 * from `urlFile`, is masked wherever the config is shown, and a read-only command that did not
 * read it sees a placeholder, which is not checked as a URL.
 */
const webhookUrl = nonEmpty.superRefine((url, ctx) => {
  if (url === UNREAD_SECRET) return;
  const protocol = URL.canParse(url) ? new URL(url).protocol : undefined;
  if (protocol === 'http:' || protocol === 'https:') return;
  ctx.addIssue({ code: 'custom', message: 'expected an http:// or https:// URL' });
});

const webhookSchema = z
  .strictObject({
    url: webhookUrl.optional(),
    urlFile: nonEmpty.optional(),
    format: z.enum(WEBHOOK_FORMATS).default('generic'),
    timeoutMs: integer(100, 10_000, 120_000),
  })
  .superRefine((webhook, ctx) => {
    if (webhook.url !== undefined) return;
    ctx.addIssue({ code: 'custom', path: ['url'], message: 'required: set url (or urlFile)' });
  });

/**
 * `alerts` (design.md): each state fires once when it starts and once when it clears.
 * Optional; without a channel nothing is sent (the log and /metrics still tell).
 */
export const alertsSchema = z.strictObject({
  webhook: webhookSchema.optional(),
  /** How often the states are looked at. */
  checkSeconds: integer(1, 15, 3_600),
  /** While a state lasts, more of its events (dead letters, rejected files) go out in one digest this often. */
  digestMinutes: integer(1, 60, 24 * 60),
});

export type AlertsConfig = z.infer<typeof alertsSchema>;
