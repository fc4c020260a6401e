import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { expect, it } from 'vitest';
import { startDaemon } from '../../src/app/daemon.js';
import { appRig } from '../support/appRig.js';

/** Nothing listens on the discard port: every request to the platform fails at once. */
const DEAD_PLATFORM = 'http://127.0.0.1:9/api';

it('the daemon looks at the states on its own and tells the webhook once, also with the endpoint off', async () => {
  const bodies: Record<string, unknown>[] = [];
  const server = createServer((request, response) => {
    let text = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
    request.on('end', () => {
      bodies.push(JSON.parse(text) as Record<string, unknown>);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
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
