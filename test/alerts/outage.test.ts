import { afterEach, describe, expect, it } from 'vitest';
import { alertsOf } from '../../src/app/alerting.js';
import type { App } from '../../src/app/app.js';
import { daemonHealth } from '../../src/app/readiness.js';
import { syncOnce } from '../../src/app/syncOnce.js';
import { appRig, type AppRig } from '../support/appRig.js';
import { FakeClock } from '../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../support/simulator.js';
import { webhookReceiver } from '../support/webhookReceiver.js';

const START = '2026-03-01T08:00:00.000Z';

let closing: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

async function daemonWithAlerts(url: string) {
  const simClock = new FakeClock(START);
  const sim: TestSimulator = await startTestSimulator({ variant: 'B', clock: simClock });
  const rig: AppRig = appRig(sim.url, 'B', START, {
    alerts: { webhook: { url, format: 'generic' }, checkSeconds: 15 },
  });
  const app: App = await rig.open();
  closing.push(async () => {
    await app.close();
    await sim.close();
    rig.cleanup();
  });
  const health = daemonHealth(app, rig.clock.now());
  const alerts = alertsOf(app, health);
  if (alerts === undefined) throw new Error('the config names a webhook: alerts expected');
  closing.push(() => alerts.stop());
  const elapse = (ms: number) => {
    simClock.advance(ms);
    rig.clock.advance(ms);
  };
  /** Fifteen seconds on, the probes run and the states are looked at, as the daemon's loop does. */
  const look = async () => {
    elapse(15_000);
    await health.refresh();
    return alerts.check();
  };
  return { sim, rig, app, alerts, look, elapse };
}

describe('alerts to a webhook', () => {
  it('a 10-minute platform outage: exactly one alert and one recovery reach the receiver', async () => {
    const hook = await webhookReceiver();
    closing.push(() => void hook.server.close());
    const daemon = await daemonWithAlerts(hook.url);
    await syncOnce(daemon.app);
    expect(await daemon.look()).toEqual([]);

    await daemon.sim.control.setFault({ errorStatus: 503 });
    for (let looked = 0; looked < 40; looked += 1) await daemon.look();
    await daemon.sim.control.clearFaults();
    await syncOnce(daemon.app);
    await daemon.look();
    await daemon.look();
    await daemon.alerts.idle();

    expect(hook.bodies.map((b) => [b.alert, b.state])).toEqual([
      ['platformUnreachable', 'firing'],
      ['platformUnreachable', 'resolved'],
    ]);
    const [fired, resolved] = hook.bodies;
    expect(typeof fired?.since).toBe('string');
    expect(fired?.details).toEqual({});
    expect(String(fired?.summary)).toContain('the platform is unreachable');
    expect(resolved?.since).toBe(fired?.since);
  });

  it('a refused inbox file fires inboxRejected once; it clears after a quiet digest period', async () => {
    const hook = await webhookReceiver();
    closing.push(() => void hook.server.close());
    const daemon = await daemonWithAlerts(hook.url);
    await syncOnce(daemon.app);
    daemon.rig.drop('patient', 'broken.json', { lastName: 'no customerId' });
    daemon.elapse(60_000);
    await syncOnce(daemon.app);
    expect(daemon.app.refusals.count).toBe(1);
    expect((await daemon.look()).map((e) => [e.alert, e.state])).toEqual([
      ['inboxRejected', 'firing'],
    ]);
    expect(await daemon.look()).toEqual([]);
    daemon.elapse(60 * 60_000);
    await syncOnce(daemon.app);
    expect((await daemon.look()).map((e) => [e.alert, e.state])).toEqual([
      ['inboxRejected', 'resolved'],
    ]);
    await daemon.alerts.idle();
    expect(hook.bodies.map((b) => b.alert)).toEqual(['inboxRejected', 'inboxRejected']);
  });
});
