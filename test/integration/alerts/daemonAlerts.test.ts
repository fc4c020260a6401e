import { pino } from 'pino';
import { expect, it } from 'vitest';
import { startDaemon } from '../../../src/app/daemon.js';
import { appRig } from '../../support/appRig.js';
import { eventually, quietFor } from '../../support/eventually.js';
import { smtpReceiver } from '../../support/smtpReceiver.js';
import { webhookReceiver } from '../../support/webhookReceiver.js';

/** Nothing listens on the discard port: every request to the platform fails at once. */
const DEAD_PLATFORM = 'http://127.0.0.1:9/api';

/**
 * Two more looks at checkSeconds 1: the state lasts, nothing more is sent. Real time: the
 * daemon looks on a real timer (its loop takes no clock), and these tests are of that loop.
 */
const twoMoreLooks = (what: string, holds: () => boolean) => quietFor(2_200, what, holds);

it('the daemon looks at the states on its own and tells the webhook once, also with the endpoint off', async () => {
  const { url, bodies, server } = await webhookReceiver();
  const rig = appRig(DEAD_PLATFORM, 'B', '2026-03-01T08:00:00.000Z', {
    http: { enabled: false },
    alerts: { webhook: { url, format: 'slack' }, checkSeconds: 1 },
  });
  const app = await rig.open(pino({ enabled: false }));
  const daemon = await startDaemon(app);
  try {
    await eventually('the webhook to be told', () => bodies.length > 0, 10_000);
    await twoMoreLooks('nothing more sent to the webhook', () => bodies.length === 1);
  } finally {
    await daemon.stop();
    await app.close();
    rig.cleanup();
    server.close();
  }
  expect(bodies).toHaveLength(1);
  expect(String(bodies[0]?.text)).toMatch(/^homecare-sync FIRING: platformUnreachable — /);
  expect(String(bodies[0]?.text)).not.toContain(url);
});

it('with mail alone the daemon looks at the states too, and mails once', async () => {
  const smtp = await smtpReceiver();
  const rig = appRig(DEAD_PLATFORM, 'B', '2026-03-01T08:00:00.000Z', {
    http: { enabled: false },
    alerts: {
      mail: { smtp: smtp.url, from: 'homecare-sync@example.com', to: ['it@example.com'] },
      checkSeconds: 1,
    },
  });
  const app = await rig.open(pino({ enabled: false }));
  const daemon = await startDaemon(app);
  try {
    await eventually('a mail to be sent', () => smtp.mails.length > 0, 10_000);
    await twoMoreLooks('nothing more mailed', () => smtp.mails.length === 1);
  } finally {
    await daemon.stop();
    await app.close();
    rig.cleanup();
    await smtp.close();
  }
  expect(smtp.mails.map((mail) => mail.subject)).toEqual([
    expect.stringMatching(/^homecare-sync FIRING: platformUnreachable — /),
  ]);
});
