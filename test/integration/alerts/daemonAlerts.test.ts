import { pino } from 'pino';
import { expect, it } from 'vitest';
import { startDaemon } from '../../../src/app/daemon.js';
import { appRig } from '../../support/appRig.js';
import { eventually } from '../../support/eventually.js';
import type { FakeClock } from '../../support/fakeClock.js';
import { smtpReceiver } from '../../support/smtpReceiver.js';
import { webhookReceiver } from '../../support/webhookReceiver.js';

/** Nothing listens on the discard port: every request to the platform fails at once. */
const DEAD_PLATFORM = 'http://127.0.0.1:9/api';

/** The daemon looks every checkSeconds (1) of its clock; the first look after one, too. */
const look = (clock: FakeClock) => clock.elapse(1_000);
/** Two more looks: the state lasts, nothing more is sent. */
const twoMoreLooks = async (clock: FakeClock) => {
  await look(clock);
  await look(clock);
};

it('the daemon looks at the states on its own and tells the webhook once, also with the endpoint off', async () => {
  const { url, bodies, server } = await webhookReceiver();
  const rig = appRig(DEAD_PLATFORM, 'B', '2026-03-01T08:00:00.000Z', {
    http: { enabled: false },
    alerts: { webhook: { url, format: 'slack' }, checkSeconds: 1 },
  });
  const app = await rig.open(pino({ enabled: false }));
  const daemon = await startDaemon(app);
  try {
    expect(bodies).toEqual([]);
    await look(rig.clock);
    await eventually('the webhook to be told', () => bodies.length > 0, 10_000);
    await twoMoreLooks(rig.clock);
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
    expect(smtp.mails).toEqual([]);
    await look(rig.clock);
    await eventually('a mail to be sent', () => smtp.mails.length > 0, 10_000);
    await twoMoreLooks(rig.clock);
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
