import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { createLogger, fileLabel } from '../../../src/log/index.js';
import { appRig, registryOf, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';
const PULLED = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;

type Line = Record<string, unknown> & { level: string; msg: string };

/** What an operator sees at the default level: lines of one pass over the seeded simulator. */
describe('the operator log', () => {
  let sim: TestSimulator;
  let simClock: FakeClock;
  let rig: AppRig;
  let app: App;
  let lines: Line[];

  beforeEach(async () => {
    simClock = new FakeClock(START);
    sim = await startTestSimulator({ variant: 'B', clock: simClock, seed: 11 });
    // The endpoint on (not started here): the metrics exist only when it can serve them.
    rig = appRig(sim.url, 'B', START, { http: { enabled: true, port: 0 } });
    lines = [];
    const destination = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
    app = await rig.open(createLogger({ level: 'debug', destination }));
  });
  afterEach(async () => {
    await app.close();
    await sim.close();
    rig.cleanup();
  });

  const pass = async () => {
    simClock.advance(60_000);
    rig.clock.advance(60_000);
    lines.length = 0;
    return syncOnce(app, [...PULLED]);
  };
  const at = (level: string, msg: string) =>
    lines.filter((line) => line.level === level && line.msg === msg);
  /** A metric's samples; histograms name each (`_count`, `_bucket`) in metricName. */
  const metric = async (name: string) =>
    ((await registryOf(app).getSingleMetric(name)?.get())?.values ?? []) as Array<{
      labels: Record<string, string | number>;
      value: number;
      metricName?: string;
    }>;

  it('says at info what a pull found and what was acknowledged; an empty pull only at debug', async () => {
    expect((await pass()).ok).toBe(true);
    const found = at('info', 'pull finished');
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((line) => Number(line.new) > 0 || Number(line.quarantined) > 0)).toBe(true);
    const acks = lines.filter(
      (l) => l.level === 'info' && /^acknowledged singleOrder /.test(l.msg),
    );
    expect(acks.length).toBeGreaterThan(0);
    expect(acks[0]).toMatchObject({
      kind: 'ack.singleOrder',
      resource: 'singleOrder',
      sent: true,
      answerStatus: 200,
    });
    expect(acks[0]?.msg).toBe(
      `acknowledged singleOrder ${String(acks[0]?.id)} on the platform: platform answered 200`,
    );

    // The second pass sees the acknowledged care arrangements under `transmitted`; the third, nothing.
    expect((await pass()).ok).toBe(true);
    const third = await pass();
    expect(third.ok).toBe(true);
    expect(at('info', 'pull finished')).toEqual([]);
    expect(at('debug', 'pull finished').length).toBe(third.pulls.length);

    const jobs = await metric('homecare_sync_jobs_total');
    expect(jobs).toContainEqual(
      expect.objectContaining({
        labels: { kind: 'ack.singleOrder', outcome: 'done' },
        value: acks.length,
      }),
    );
    const latency = await metric('homecare_sync_ack_latency_seconds');
    const count = latency.find(
      (v) =>
        v.metricName === 'homecare_sync_ack_latency_seconds_count' &&
        v.labels.resource === 'singleOrder',
    );
    expect(count?.value).toBe(acks.length);
    const durations = await metric('homecare_sync_pull_duration_seconds');
    expect(
      durations.some((v) => v.metricName === 'homecare_sync_pull_duration_seconds_count'),
    ).toBe(true);
  });

  it('logs a push-back done at info and a rejected inbox file at warn, naming its report', async () => {
    expect((await pass()).ok).toBe(true);
    const order = app.store.db
      .prepare("SELECT _id AS id FROM mirror WHERE resource = 'singleOrder' LIMIT 1")
      .get() as { id: string };
    rig.drop('orderStatus', 'good.json', {
      orderType: 'single',
      id: order.id,
      status: 3,
      salesId: 'SO-1',
    });
    rig.drop('orderStatus', 'bad.json', { orderType: 'single', id: order.id, status: 99 });
    await pass();
    // Named by its label: an ERP may name a file after its patient.
    const label = fileLabel('bad.json');
    const rejected = lines.find(
      (l) => l.level === 'warn' && l.msg.startsWith(`inbox: orderStatus/${label} rejected`),
    );
    expect(rejected).toMatchObject({ kind: 'orderStatus', file: label });
    expect(String(rejected?.report).endsWith(`${label}.error.json`)).toBe(true);
    const pushed = lines.find(
      (l) => l.level === 'info' && l.msg.startsWith(`pushed orderStatus singleOrder:${order.id}`),
    );
    expect(pushed?.msg).toBe(
      `pushed orderStatus singleOrder:${order.id} back to the platform (status 3, salesId SO-1): platform answered 200`,
    );
    expect(pushed).toMatchObject({ status: 3, salesId: 'SO-1', sent: true, answerStatus: 200 });
    const inbound = await metric('homecare_sync_inbound_messages_total');
    expect(inbound).toContainEqual(
      expect.objectContaining({
        labels: { kind: 'orderStatus', source: 'file', result: 'rejected' },
        value: 1,
      }),
    );
    expect(inbound).toContainEqual(
      expect.objectContaining({
        labels: { kind: 'orderStatus', source: 'file', result: 'accepted' },
        value: 1,
      }),
    );
  });

  it('says a repeated status push sent nothing: the platform holds it already', async () => {
    expect((await pass()).ok).toBe(true);
    const order = app.store.db
      .prepare("SELECT _id AS id FROM mirror WHERE resource = 'singleOrder' LIMIT 1")
      .get() as { id: string };
    const message = { orderType: 'single', id: order.id, status: 3, salesId: 'SO-1' };
    rig.drop('orderStatus', 'first.json', message);
    await pass();
    const patches = async () =>
      (await sim.control.requests()).filter(
        (r) => r.method === 'PATCH' && r.path.endsWith(`/singleOrder/${order.id}`),
      ).length;
    const sent = await patches();

    // The same message again is a repeat (issue 36): not queued, nothing to push.
    rig.drop('orderStatus', 'again.json', message);
    await pass();
    expect(lines.filter((l) => l.msg === 'inbox message seen before; not queued again')).toEqual([
      expect.objectContaining({
        level: 'info',
        kind: 'orderStatus',
        key: `singleOrder:${order.id}`,
      }),
    ]);
    // A message of what the order already carries is queued, and its push sends nothing.
    rig.drop('orderStatus', 'status.json', { orderType: 'single', id: order.id, status: 3 });
    await pass();
    const pushed = lines.filter(
      (l) => l.level === 'info' && l.msg.startsWith(`pushed orderStatus singleOrder:${order.id}`),
    );
    expect(pushed.map((l) => l.msg)).toEqual([
      `pushed orderStatus singleOrder:${order.id} back to the platform (status 3): already on the platform, nothing sent`,
    ]);
    expect(pushed[0]).toMatchObject({ sent: false, notSent: 'already on the platform' });
    expect(pushed[0]).not.toHaveProperty('answerStatus');
    expect(await patches()).toBe(sent);
  });

  it('logs a list the platform answers 503 as one warning while it lasts, the runs at debug, info when it passes', async () => {
    await sim.control.setFault({ path: '/article', errorRate: 1, errorStatus: 503 });
    expect((await pass()).ok).toBe(false);
    const runs = lines.filter((l) => l.msg.startsWith('pull of article'));
    expect(runs.length).toBeGreaterThan(0);
    expect(runs.filter((l) => l.level !== 'debug')).toEqual([]);
    // One state of the platform's 503s (issue 37), which the list joined.
    const warned = lines.filter((l) => l.level === 'warn');
    expect(warned).toEqual([
      expect.objectContaining({ resource: 'article', code: 'HTTP_503', outage: 'HTTP 503' }),
    ]);
    expect(warned[0]?.msg).toMatch(/^platform requests fail \(HTTP 503\): GET \/article/);
    expect(warned[0]).not.toHaveProperty('err');
    expect(runs.filter((l) => l.level === 'debug')[0]?.err).toMatchObject({
      type: 'TransientError',
      status: 503,
    });
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);

    expect((await pass()).ok).toBe(false);
    expect(lines.filter((l) => l.level === 'warn' && l.msg.includes('article'))).toEqual([]);
    await sim.control.clearFaults();
    simClock.advance(60_000);
    rig.clock.advance(60_000);
    expect((await pass()).ok).toBe(true);
    expect(
      at(
        'info',
        'platform requests go through again (failing with HTTP 503 since 2026-03-01T08:01:00.000Z)',
      ),
    ).toHaveLength(1);
  });
});
