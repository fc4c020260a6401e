import { rmSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createApp, type App } from '../../../src/app/app.js';
import { daemonHealth } from '../../../src/app/daemonHealth.js';
import { deliveryStalls, pullFreshness, scheduleIntervalMs } from '../../../src/http/readiness.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { useSimulator } from '../../support/simulator.js';

const now = new Date('2026-03-01T12:00:30.000Z');
const startedAt = new Date('2026-03-01T11:00:00.000Z');

describe('readiness: pull freshness', () => {
  it('measures schedule intervals in the configured time zone', () => {
    expect(scheduleIntervalMs('*/1 * * * *', now)).toBe(60_000);
    expect(scheduleIntervalMs('*/5 * * * *', now)).toBe(300_000);
    expect(scheduleIntervalMs('0 * * * *', now)).toBe(3_600_000);
    // The night summer time starts in Berlin (29 March 2026) has 23 hours; in UTC it has 24.
    const beforeTheSwitch = new Date('2026-03-28T12:00:00.000Z');
    expect(scheduleIntervalMs('30 1 * * *', beforeTheSwitch, 'UTC')).toBe(24 * 3_600_000);
    expect(scheduleIntervalMs('30 1 * * *', beforeTheSwitch, 'Europe/Berlin')).toBe(23 * 3_600_000);
  });

  it('is ok when every resource pulled recently enough, and names each late one', () => {
    const input = { now, startedAt, toleratedIntervals: 3, timeZone: 'UTC' };
    expect(
      pullFreshness({
        ...input,
        resources: [
          {
            resource: 'singleOrder',
            schedule: '*/1 * * * *',
            lastSuccessAt: '2026-03-01T11:58:00.000Z',
          },
          { resource: 'article', schedule: '0 * * * *', lastSuccessAt: '2026-03-01T10:00:00.000Z' },
        ],
      }),
    ).toEqual({ ok: true });
    expect(
      pullFreshness({
        ...input,
        resources: [
          {
            resource: 'singleOrder',
            schedule: '*/1 * * * *',
            lastSuccessAt: '2026-03-01T11:50:00.000Z',
          },
          { resource: 'patient', schedule: '*/5 * * * *', lastSuccessAt: undefined },
        ],
      }),
    ).toEqual({
      ok: false,
      problem:
        'singleOrder: last successful pull 2026-03-01T11:50:00.000Z, expected one every 4 minutes at most; ' +
        'patient: no successful pull yet, expected one every 16 minutes at most',
    });
  });
});

describe('readiness: stalled deliveries', () => {
  it('names the work open longer than allowed, and only that', () => {
    const open = [
      { what: 'record version(s) not yet in the ERP', count: 4, since: '2026-03-01T11:00:00.000Z' },
      { what: 'queue job(s) not yet done', count: 2, since: '2026-03-01T11:59:00.000Z' },
    ];
    expect(deliveryStalls(now, 90 * 60_000, open)).toEqual({ ok: true });
    expect(deliveryStalls(now, 30 * 60_000, open)).toEqual({
      ok: false,
      problem:
        '4 record version(s) not yet in the ERP open, the oldest since 2026-03-01T11:00:00.000Z: older than 30 minutes; see `homecare-sync status` and `queue list`',
    });
    expect(
      deliveryStalls(now, 30 * 60_000, [{ what: 'jobs', count: 0, since: undefined }]),
    ).toEqual({ ok: true });
  });
});

describe('readiness of a daemon against the simulator', () => {
  const sim = useSimulator({ variant: 'B', seed: 5 });
  const START = '2026-03-01T12:00:00.000Z';
  let rig: AppRig;
  let app: App | undefined;
  beforeEach(() => {
    rig = appRig(sim().url, 'B', START, {
      http: { enabled: false, readyCheckSeconds: 30, readyStalledMinutes: 30 },
    });
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
    rig.cleanup();
  });

  it('is ready when the platform answers, the outbox takes files and nothing is stuck', async () => {
    app = await rig.open();
    await app.runner.runAll();
    await app.worker.runUntilEmpty();
    const health = daemonHealth(app, rig.clock.now());
    expect(health.ready().checks.platform).toEqual({ ok: false, problem: 'not checked yet' });
    await health.refresh();
    const ready = health.ready();
    expect(ready.problems).toEqual([]);
    expect(Object.keys(ready.checks)).toEqual([
      'database',
      'storage',
      'platform',
      'erp',
      'pulls',
      'delivery',
    ]);
    expect(health.live()).toEqual({ ok: true });
  });

  it('says the platform refuses the key, and keeps the inbound endpoint ready', async () => {
    const config = (await rig.open().then(async (first) => (await first.close(), first))).config;
    const wrongKey = { ...config, platform: { ...config.platform, apiKey: 'nobody' } };
    app = await createApp(wrongKey, {
      clock: rig.clock,
      env: {},
      logger: pino({ enabled: false }),
    });
    const health = daemonHealth(app, rig.clock.now());
    await health.refresh();
    const ready = health.ready();
    expect(ready.ready).toBe(false);
    expect(ready.checks.platform?.ok).toBe(false);
    expect(ready.problems[0]).toMatch(/^platform: .*40[13]/);
    expect(health.inboundReady()).toMatchObject({ ready: true, problems: [] });
  });

  it('says the outbox cannot be written, and why', async () => {
    app = await rig.open();
    rmSync(rig.outbox, { recursive: true, force: true });
    writeFileSync(rig.outbox, 'a file where the outbox folder should be');
    const health = daemonHealth(app, rig.clock.now());
    await health.refresh();
    const erp = health.ready().checks.erp;
    expect(erp?.ok).toBe(false);
    expect(erp?.problem).toMatch(new RegExp(`^the outbox ${rig.outbox} is not writable: ENOTDIR`));
  });

  it('says deliveries are stalled when pulled records wait longer than allowed', async () => {
    app = await rig.open();
    await app.runner.runAll();
    const health = daemonHealth(app, rig.clock.now());
    await health.refresh();
    expect(health.ready().checks.delivery).toEqual({ ok: true });
    rig.clock.advance(31 * 60_000);
    const delivery = health.ready().checks.delivery;
    expect(delivery?.ok).toBe(false);
    expect(delivery?.problem).toMatch(
      /^\d+ record version\(s\) not yet in the ERP open, the oldest since 2026-03-01T12:00:00\.000Z: older than 30 minutes/,
    );
  });
});
