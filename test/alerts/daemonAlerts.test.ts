import { pino } from 'pino';
import { expect, it } from 'vitest';
import { startDaemon } from '../../src/app/daemon.js';
import { appRig } from '../support/appRig.js';
import { webhookReceiver } from '../support/webhookReceiver.js';

/** Nothing listens on the discard port: every request to the platform fails at once. */
const DEAD_PLATFORM = 'http://127.0.0.1:9/api';

it('the daemon looks at the states on its own and tells the webhook once, also with the endpoint off', async () => {
  const { url, bodies, server } = await webhookReceiver();
  const rig = appRig(DEAD_PLATFORM, 'B', '2026-03-01T08:00:00.000Z', {
    http: { enabled: false },
    alerts: { webhook: { url, format: 'slack' }, checkSeconds: 1 },
  });
  const app = await rig.open(pino({ enabled: false }));
  const daemon = await startDaemon(app);
  try {
    for (let waited = 0; bodies.length === 0 && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // Two more looks: the state lasts, nothing more is sent.
    await new Promise((resolve) => setTimeout(resolve, 2_200));
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
