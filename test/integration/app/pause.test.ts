import { describe, expect, it } from 'vitest';
import { daemonHealth } from '../../../src/app/daemonHealth.js';
import {
  countJobs,
  getCheckpoint,
  getMirror,
  pause,
  resume,
  transaction,
  type PauseDirection,
} from '../../../src/store/index.js';
import type { App } from '../../../src/app/app.js';
import { registryOf } from '../../support/appRig.js';
import { useAppCycle, type AppCycle } from '../../support/appCycle.js';
import { api } from '../../support/simulator.js';

/** What an order is delivered with: the records it refers to. */
const ORDER_AND_REFERENCES = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;

/** What `homecare-sync pause` and `resume` do to the database, from this process. */
const pauseIt = (app: App, way: PauseDirection, target = '*') =>
  transaction(app.store, () => pause(app.store, way, target));
const resumeIt = (app: App, way: PauseDirection, target = '*') =>
  transaction(app.store, () => resume(app.store, way, target));

/** The writes the simulator took (anything but a read). */
async function writesTo({ sim }: AppCycle) {
  return (await sim.control.requests()).filter((r) => r.method !== 'GET');
}

describe('pause pull', () => {
  const cycle = useAppCycle({ variant: 'B' });

  it('a paused resource is pulled neither by a pass nor by its schedule; resumed, the next pass pulls what it missed', async () => {
    const c = cycle();
    const { app, sim, rig } = c;
    expect((await c.pass(['patient'])).ok).toBe(true);
    const handed = rig.outboxFiles('patient');
    const watermark = getCheckpoint(app.store, 'patient', '')?.watermark;
    const created = await sim.control.createRecord('patient', { lastName: 'Paused' });
    const id = String(created['_id']);

    pauseIt(app, 'pull', 'patient');
    const paused = await c.pass(['patient']);
    expect(paused.paused.pulls).toEqual(['patient']);
    expect(paused.pulls).toEqual([]);
    expect(paused.ok).toBe(true);
    // What the schedule's tick runs.
    expect(await app.runner.runResource('patient')).toEqual([]);
    expect(getMirror(app.store, 'patient', id)).toBeUndefined();
    expect(rig.outboxFiles('patient')).toEqual(handed);
    expect(getCheckpoint(app.store, 'patient', '')?.watermark).toBe(watermark);

    resumeIt(app, 'pull', 'patient');
    const resumed = await c.pass(['patient']);
    expect(resumed.paused.pulls).toEqual([]);
    expect(resumed.pulls.map((p) => p.resource)).toEqual(['patient']);
    expect(getMirror(app.store, 'patient', id)).toBeDefined();
    expect(rig.outboxFiles('patient').filter((file) => file.startsWith(id))).toHaveLength(1);
  });

  it('the whole direction: no resource is pulled, and a resource resumed alone stays paused with it', async () => {
    const c = cycle();
    const { app } = c;
    pauseIt(app, 'pull');
    pauseIt(app, 'pull', 'article');
    const report = await c.pass(['patient', 'article']);
    expect(report.pulls).toEqual([]);
    expect(report.paused.pulls).toEqual(['patient', 'article']);
    resumeIt(app, 'pull', 'article');
    expect((await c.pass(['article'])).paused.pulls).toEqual(['article']);
    resumeIt(app, 'pull');
    const resumed = await c.pass(['patient', 'article']);
    expect(resumed.paused.pulls).toEqual([]);
    expect(new Set(resumed.pulls.map((p) => p.resource))).toEqual(new Set(['patient', 'article']));
  });
});

describe('pause push', () => {
  const cycle = useAppCycle({ variant: 'B' });

  /** The seed's records of `resource` waiting for their acknowledgement on the platform. */
  async function created(url: string, resource: string): Promise<string[]> {
    const answer = await api(
      { url },
      'GET',
      `/${resource}?status=created&updatedAfter=1970-01-01T00:00:00.000Z`,
    );
    return (answer.json as { _id: string }[]).map((record) => record._id);
  }

  it('queued writes stay queued and nothing reaches the platform; resumed, each is written once', async () => {
    const c = cycle();
    const { app, sim, rig } = c;
    const orders = await created(sim.url, 'singleOrder');
    expect(orders.length).toBeGreaterThan(0);
    await sim.control.clearRequests();

    pauseIt(app, 'push');
    const paused = await c.pass(ORDER_AND_REFERENCES);
    expect(paused.ok).toBe(true);
    expect(paused.paused.writes).toEqual(['*']);
    // The acknowledgements of the orders and of the care arrangements they came with.
    const held = countJobs(app.store, 'pending');
    expect(held).toBeGreaterThanOrEqual(orders.length);
    expect(paused.paused.heldJobs).toBe(held);
    // Handed to the ERP (a hand-over is no platform write), not acknowledged.
    for (const id of orders) {
      expect(rig.outboxFiles('singleOrder').filter((f) => f.startsWith(id))).toHaveLength(1);
      expect((await sim.control.getRecord('singleOrder', id))['status']).toBe(0);
    }
    expect(await writesTo(c)).toEqual([]);

    resumeIt(app, 'push');
    const resumed = await c.pass([]);
    expect(resumed.ok).toBe(true);
    expect(resumed.paused).toEqual({ pulls: [], writes: [], heldJobs: 0 });
    const writes = await writesTo(c);
    expect(writes).toHaveLength(held);
    expect(new Set(writes.map((w) => w.path)).size).toBe(held);
    for (const id of orders) {
      expect(writes.filter((w) => w.path === `/singleOrder/${id}`)).toHaveLength(1);
      expect((await sim.control.getRecord('singleOrder', id))['status']).toBe(1);
    }
    expect(countJobs(app.store, 'pending')).toBe(0);
  });

  it('one kind: its jobs wait while the other kinds are written', async () => {
    const c = cycle();
    const { app, sim, rig } = c;
    const [order] = await created(sim.url, 'singleOrder');
    const cares = await created(sim.url, 'integratedCare');
    if (order === undefined || cares.length === 0) throw new Error('the seed has no new order');
    const seriesStatus = async () =>
      Promise.all(
        cares.map(
          async (id) => (await sim.control.getRecord('integratedCare', id))['seriesStatus'],
        ),
      );

    pauseIt(app, 'push', 'ack.integratedCare');
    const first = await c.pass(ORDER_AND_REFERENCES);
    expect(first.paused).toEqual({
      pulls: [],
      writes: ['ack.integratedCare'],
      heldJobs: cares.length,
    });
    expect((await sim.control.getRecord('singleOrder', order))['status']).toBe(1);
    expect(await seriesStatus()).toEqual(cares.map(() => 0));

    resumeIt(app, 'push', 'ack.integratedCare');
    pauseIt(app, 'push', 'orderStatus');
    rig.drop('orderStatus', 'answer.json', {
      orderType: 'single',
      id: order,
      status: 3,
      salesId: 'SO-P',
    });
    await sim.control.clearRequests();
    const second = await c.pass([]);
    expect(second.paused).toEqual({ pulls: [], writes: ['orderStatus'], heldJobs: 1 });
    expect(await seriesStatus()).toEqual(cares.map(() => 1));
    expect(await sim.control.getRecord('singleOrder', order)).toMatchObject({ status: 1 });

    resumeIt(app, 'push', 'orderStatus');
    await c.pass([]);
    expect(await sim.control.getRecord('singleOrder', order)).toMatchObject({
      status: 3,
      salesId: 'SO-P',
    });
    const answers = (await writesTo(c)).filter((w) => w.path === `/singleOrder/${order}`);
    expect(answers).toHaveLength(1);
  });
});

describe('readiness and metrics while paused', () => {
  const cycle = useAppCycle({
    variant: 'B',
    extra: { http: { enabled: true, port: 0, token: 'f0e1d2c3b4a5968778695a4b3c2d1e0f' } },
  });

  async function pausedSeries(app: App) {
    const metric = registryOf(app).getSingleMetric('homecare_sync_paused');
    const values = (await metric?.get())?.values ?? [];
    return values.map((v) => ({ ...v.labels, value: v.value }));
  }

  it('a paused resource is left out of the freshness check and counts from its resume; metrics show each pause', async () => {
    const { app, rig } = cycle();
    const health = daemonHealth(app, rig.clock.now());
    // Two hours without a pull: every resource is late.
    rig.clock.advance(2 * 3_600_000);
    const late = health.ready().checks['pulls'];
    expect(late?.ok).toBe(false);
    expect(late?.problem).toContain('patient:');

    pauseIt(app, 'pull', 'patient');
    const one = health.ready().checks['pulls'];
    expect(one?.ok).toBe(false);
    expect(one?.problem).not.toContain('patient:');
    pauseIt(app, 'pull');
    expect(health.ready().checks['pulls']).toEqual({ ok: true });
    pauseIt(app, 'push', 'orderStatus');
    expect(await pausedSeries(app)).toEqual(
      expect.arrayContaining([
        { direction: 'pull', resource: '*', value: 1 },
        { direction: 'pull', resource: 'patient', value: 1 },
        { direction: 'push', resource: '*', value: 0 },
        { direction: 'push', resource: 'orderStatus', value: 1 },
      ]),
    );

    // Resumed: counted from the resume, not from the last pull two hours ago.
    resumeIt(app, 'pull');
    resumeIt(app, 'pull', 'patient');
    expect(health.ready().checks['pulls']).toEqual({ ok: true });
    rig.clock.advance(2 * 3_600_000);
    expect(health.ready().checks['pulls']?.ok).toBe(false);
    expect(await pausedSeries(app)).toEqual([
      { direction: 'pull', resource: '*', value: 0 },
      { direction: 'push', resource: '*', value: 0 },
      { direction: 'push', resource: 'orderStatus', value: 1 },
    ]);
  });

  it('platform writes held by a pause do not count as stalled work', async () => {
    const c = cycle();
    const { app, rig } = c;
    pauseIt(app, 'push');
    await c.pass(ORDER_AND_REFERENCES);
    expect(countJobs(app.store, 'pending')).toBeGreaterThan(0);
    const health = daemonHealth(app, rig.clock.now());
    rig.clock.advance(3 * 3_600_000);
    expect(health.ready().checks['delivery']).toEqual({ ok: true });
    resumeIt(app, 'push');
    const stalled = health.ready().checks['delivery'];
    expect(stalled?.ok).toBe(false);
    expect(stalled?.problem).toContain('queue job(s) not yet done');
  });
});
