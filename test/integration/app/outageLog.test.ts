import { afterEach, describe, expect, it } from 'vitest';
import { alertsOf } from '../../../src/app/alerting.js';
import type { App } from '../../../src/app/app.js';
import { daemonHealth } from '../../../src/app/daemonHealth.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { createLogger } from '../../../src/log/index.js';
import { SimControl, startSimulator, type RunningSimulator } from '../../../src/simulator/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { smtpReceiver, type ReceivedMail } from '../../support/smtpReceiver.js';
import { webhookReceiver } from '../../support/webhookReceiver.js';

const START = '2026-03-01T08:00:00.000Z';

let closing: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

type Line = Record<string, unknown> & { level: string; msg: string };

/** How the platform goes away and comes back: its simulator stopped, or answering 503. */
interface Outage {
  begin(sim: RunningSimulator): Promise<void>;
  /** Answers the simulator to go on with; `restart` starts one where the first listened. */
  end(sim: RunningSimulator, restart: () => Promise<RunningSimulator>): Promise<RunningSimulator>;
}

interface OutageRun {
  /** The lines from the outage's start to two minutes after its end. */
  during: Line[];
  app: App;
  alerts: Record<string, unknown>[];
  mails: ReceivedMail[];
}

/**
 * The daemon's App over a simulator, alerts to a local webhook and a local SMTP server: a
 * minute of what the daemon does, then ten minutes of outage, then two minutes after it. A
 * minute is a `sync --once` pass, the daemon's outage log, the probes and the alert states.
 */
async function tenMinuteOutage(outage: Outage): Promise<OutageRun> {
  const hook = await webhookReceiver();
  const smtp = await smtpReceiver();
  const simClock = new FakeClock(START);
  const startAt = (port: number) =>
    startSimulator({ variant: 'B', clock: simClock, port, host: '127.0.0.1' });
  let sim: RunningSimulator = await startAt(0);
  const restart = () => startAt(Number(new URL(sim.url).port));
  const rig: AppRig = appRig(sim.url, 'B', START, {
    alerts: {
      webhook: { url: hook.url, format: 'generic' },
      mail: { smtp: smtp.url, from: 'homecare-sync@example.com', to: ['it@example.com'] },
    },
  });
  const lines: Line[] = [];
  const destination = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
  const app: App = await rig.open(createLogger({ level: 'debug', destination }));
  const health = daemonHealth(app, rig.clock.now());
  const alerts = alertsOf(app, health);
  if (alerts === undefined) throw new Error('the config names a webhook and mail: alerts expected');
  closing.push(
    () => rig.cleanup(),
    () => void hook.server.close(),
    () => smtp.close(),
    () => app.close(),
    () => sim.close(),
    async () => void (await alerts.stop()),
  );
  const log = app.outageLog;
  const minute = async () => {
    simClock.advance(60_000);
    rig.clock.advance(60_000);
    await syncOnce(app);
    log();
    await health.refresh();
    alerts.check();
  };
  await minute();
  const before = lines.length;
  await outage.begin(sim);
  for (let minutes = 0; minutes < 10; minutes += 1) await minute();
  sim = await outage.end(sim, restart);
  await minute();
  await minute();
  await alerts.idle();
  return { during: lines.slice(before), app, alerts: hook.bodies, mails: smtp.mails };
}

/** At most three warn lines, none with a stack, no error line; one alert and one recovery. */
function expectOneStateChange(run: OutageRun): void {
  const loud = run.during.filter((line) => line.level === 'warn' || line.level === 'error');
  expect(loud.length, loud.map((line) => line.msg).join('\n')).toBeLessThanOrEqual(3);
  expect(loud.filter((line) => line.level === 'error')).toEqual([]);
  expect(JSON.stringify(loud)).not.toContain('"stack"');
  expect(run.alerts.map((body) => [body.alert, body.state])).toEqual([
    ['platformUnreachable', 'firing'],
    ['platformUnreachable', 'resolved'],
  ]);
  expect(run.alerts[1]?.since).toBe(run.alerts[0]?.since);
  expect(run.mails.map((mail) => [mail.to.join(), mail.subject.split(' — ')[0]])).toEqual([
    ['it@example.com', 'homecare-sync FIRING: platformUnreachable'],
    ['it@example.com', 'homecare-sync RESOLVED: platformUnreachable'],
  ]);
}

describe('a 10-minute platform outage (design.md #27: one line per state change)', () => {
  it('unreachable: one warning when it starts, info when it is back, one alert and one recovery', async () => {
    const run = await tenMinuteOutage({
      begin: (sim) => sim.close(),
      end: (_sim, restart) => restart(),
    });
    expectOneStateChange(run);
    const down = run.during.filter((line) => line.msg.includes('the platform cannot be reached'));
    expect(down.map((line) => line.level)).toEqual(['warn']);
    const back = run.during.filter((line) =>
      line.msg.includes('the platform can be reached again'),
    );
    expect(back.map((line) => line.level)).toEqual(['info']);
    expect(run.app.client.outage()).toBeUndefined();
  });

  it('answering 503 to everything (fault injection): the failing lists and jobs are one state, one alert and one recovery', async () => {
    const control = (sim: RunningSimulator) => new SimControl(sim.url, sim.controlToken);
    const run = await tenMinuteOutage({
      begin: async (sim) => void (await control(sim).setFault({ errorStatus: 503 })),
      end: async (sim) => {
        await control(sim).clearFaults();
        return sim;
      },
    });
    expectOneStateChange(run);
    const failing = run.during.filter((line) => line['outage'] === 'HTTP 503');
    expect(failing.map((line) => line.level)).toEqual(['warn', 'info']);
    expect(failing[0]).toMatchObject({ code: 'HTTP_503' });
  });
});
