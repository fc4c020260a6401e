import { afterEach, describe, expect, it } from 'vitest';
import { alertsOf } from '../../../src/app/alerting.js';
import type { App } from '../../../src/app/app.js';
import { daemonHealth } from '../../../src/app/daemonHealth.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { fileLabel } from '../../../src/log/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';
import { smtpReceiver } from '../../support/smtpReceiver.js';
import { webhookReceiver } from '../../support/webhookReceiver.js';

const START = '2026-03-01T08:00:00.000Z';

/** A refused patient file as alerts name it: its kind, its label and the day it was refused. */
const named = (name: string) => `patient/${fileLabel(name)} (2026-03-01)`;

let closing: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

/** The daemon's App with alerts to a webhook, and by mail when given an SMTP URL. */
async function daemonWithAlerts(url: string, smtp?: string) {
  const simClock = new FakeClock(START);
  const sim: TestSimulator = await startTestSimulator({ variant: 'B', clock: simClock });
  const mail = { smtp, from: 'homecare-sync@example.com', to: ['it@example.com'] };
  const rig: AppRig = appRig(sim.url, 'B', START, {
    alerts: {
      webhook: { url, format: 'generic' },
      ...(smtp === undefined ? {} : { mail }),
      checkSeconds: 15,
    },
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
  closing.push(async () => void (await alerts.stop()));
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

// A 10-minute outage's one alert and one recovery: test/integration/app/outageLog.test.ts (with its log lines).
describe('alerts to a webhook', () => {
  it('a refused inbox file fires inboxRejected once, naming it by its label; it clears after a quiet digest period', async () => {
    const hook = await webhookReceiver();
    closing.push(() => void hook.server.close());
    const daemon = await daemonWithAlerts(hook.url);
    await syncOnce(daemon.app);
    // ERPs name files after the patient: the alert names the file by its label.
    const file = 'Norris_Arved_1933-11-23_Brueckenstr29c.json';
    daemon.rig.drop('patient', file, { lastName: 'no customerId' });
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
    expect(hook.bodies[0]?.details).toEqual({ count: 1, names: [named(file)] });
    expect(JSON.stringify(hook.bodies)).not.toMatch(/Norris|Arved|1933-11-23|Brueckenstr/);
  });

  it('many files refused in a short window: one message listing them, then one digest of the next, on both channels', async () => {
    const hook = await webhookReceiver();
    const smtp = await smtpReceiver();
    closing.push(
      () => void hook.server.close(),
      () => smtp.close(),
    );
    const daemon = await daemonWithAlerts(hook.url, smtp.url);
    await syncOnce(daemon.app);
    const drop = (names: string[]) => {
      for (const name of names) daemon.rig.drop('patient', name, { lastName: 'no customerId' });
    };
    drop(['a.json', 'b.json', 'c.json']);
    daemon.elapse(60_000);
    await syncOnce(daemon.app);
    expect((await daemon.look()).map((e) => [e.alert, e.state])).toEqual([
      ['inboxRejected', 'firing'],
    ]);
    // More refusals while it lasts: quiet until the digest period (60 minutes) is over.
    drop(['d.json', 'e.json']);
    daemon.elapse(60_000);
    await syncOnce(daemon.app);
    expect(await daemon.look()).toEqual([]);
    daemon.elapse(59 * 60_000);
    drop(['f.json']);
    daemon.elapse(60_000);
    await syncOnce(daemon.app);
    const [digest, ...more] = await daemon.look();
    expect(more).toEqual([]);
    expect(digest?.details).toEqual({
      count: 6,
      repeats: 3,
      names: ['d.json', 'e.json', 'f.json'].map(named),
    });
    await daemon.alerts.idle();

    expect(hook.bodies.map((b) => (b.details as { names: string[] }).names)).toEqual([
      ['a.json', 'b.json', 'c.json'].map(named),
      ['d.json', 'e.json', 'f.json'].map(named),
    ]);
    expect(smtp.mails).toHaveLength(2);
    expect(smtp.mails[0]?.subject).toContain(
      `: ${['a.json', 'b.json', 'c.json'].map(named).join(', ')}`,
    );
    expect(smtp.mails[1]?.text).toContain('3 more since');
    expect(smtp.mails[1]?.text).toContain(
      `names: ${['d.json', 'e.json', 'f.json'].map(named).join(', ')}`,
    );
  });
});
