import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { appRig, registryOf, type AppRig } from '../../support/appRig.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

let sim: TestSimulator;
let rig: AppRig;
let app: App;

beforeAll(async () => {
  sim = await startTestSimulator();
  // The endpoint on (not started here): the metrics exist only when it can serve them.
  rig = appRig(sim.url, 'B', '2026-03-01T08:00:00.000Z', { http: { enabled: true, port: 0 } });
  app = await rig.open();
});
afterAll(async () => {
  await app.close();
  await sim.close();
  rig.cleanup();
});

describe('homecare_sync_inbound_messages_total', () => {
  it('counts the messages of the file inbox and of POST /erp/<kind> by kind, source and result', async () => {
    rig.drop('orderStatus', 'good.json', { orderType: 'single', id: 'o-1', status: 3 });
    rig.drop('orderStatus', 'bad.json', { orderType: 'single', id: 'o-1', status: 'three' });
    expect((await app.inbox?.scanOnce())?.counts).toMatchObject({ accepted: 1, rejected: 1 });
    app.inbound('orderStatus', { orderType: 'single', id: 'o-2', status: 3 }, 'key-1');
    app.inbound('orderStatus', { orderType: 'single', id: 'o-2', status: 3 }, 'key-1');
    app.inbound('orderStatus', { orderType: 'single', id: 'o-2', status: 5 }, 'key-1');

    const text = await registryOf(app).getSingleMetricAsString(
      'homecare_sync_inbound_messages_total',
    );
    const count = (source: string, result: string) =>
      new RegExp(`\\{kind="orderStatus",source="${source}",result="${result}"\\} (\\d+)`).exec(
        text,
      )?.[1];
    expect(count('file', 'accepted')).toBe('1');
    expect(count('file', 'rejected')).toBe('1');
    expect(count('http', 'accepted')).toBe('1');
    expect(count('http', 'repeat')).toBe('1');
    expect(count('http', 'rejected')).toBe('1');
  });
});
