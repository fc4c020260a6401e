import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  getCheckpoint,
  getMirror,
  listQuarantine,
  listStoredJobs,
} from '../../../src/store/index.js';
import { startPullRig, type PullRig } from '../../support/daemon.js';
import { eventually } from '../../support/eventually.js';
import { answeringUntil, startTestSimulator, type TestSimulator } from '../../support/simulator.js';
import { FakeClock } from '../../support/fakeClock.js';
import { SIM_START } from '../../support/daemon.js';

const MINUTE = 60_000;

describe.each(['A', 'B', 'C'] as const)('pulling from a variant %s platform', (variant) => {
  let sim: TestSimulator;
  let simClock: FakeClock;
  let rig: PullRig;

  beforeEach(async () => {
    simClock = new FakeClock(SIM_START);
    sim = await startTestSimulator({ variant, clock: simClock, seed: 3 });
    rig = startPullRig(sim.url, variant);
  });
  afterEach(async () => {
    await rig.close();
    await sim.close();
  });

  /** Both clocks move together, as real time does. */
  const elapse = (ms: number) => {
    simClock.advance(ms);
    rig.clock.advance(ms);
  };

  const createdOrder = async (changes: Record<string, unknown> = {}) =>
    sim.control.createRecord('singleOrder', { status: 0, patientId: 'p-unknown', ...changes });

  it('pulls every list, then only what changed, and the overlap repeats are no-ops', async () => {
    const first = await rig.runner.runAll();
    expect(
      first.every((s) => s.ok),
      JSON.stringify(first.filter((s) => !s.ok)),
    ).toBe(true);
    const orders = first.filter((s) => s.resource === 'singleOrder');
    expect(orders.reduce((n, s) => n + s.fresh, 0)).toBeGreaterThan(0);
    const watermark = getCheckpoint(rig.store, 'singleOrder', 'created')?.watermark;
    expect(watermark).toBe('2026-03-01T07:58:00.000Z');

    elapse(MINUTE);
    const order = await createdOrder();
    elapse(MINUTE);
    const second = await rig.runner.runResource('singleOrder');
    const created = second?.find((s) => s.filter === 'created');
    expect(created).toMatchObject({ fresh: 1, ok: true });
    expect(getMirror(rig.store, 'singleOrder', String(order['_id']))?.record).toMatchObject({
      status: 0,
    });

    elapse(30_000);
    const third = await rig.runner.runResource('singleOrder');
    const again = third?.find((s) => s.filter === 'created');
    expect(again?.fresh).toBe(0);
    expect(again?.repeats).toBe(again?.fetched);
    expect(again?.repeats).toBeGreaterThanOrEqual(1);
    const deliveries = listStoredJobs(rig.store, ['pending'], -1, 'deliver.').filter(
      (job) => job.entityKey === `singleOrder:${String(order['_id'])}`,
    );
    expect(deliveries).toHaveLength(1);
  });

  it('loses nothing when the list is cut off before the commit', async () => {
    await rig.runner.runAll(['singleOrder']);
    const before = getCheckpoint(rig.store, 'singleOrder', 'created')?.watermark;
    elapse(5 * MINUTE);
    const order = await createdOrder();
    await sim.control.setFault({ path: '/singleOrder', truncate: true });
    elapse(MINUTE);
    const failed = await rig.runner.runResource('singleOrder');
    expect(failed?.some((s) => !s.ok)).toBe(true);
    expect(getCheckpoint(rig.store, 'singleOrder', 'created')?.watermark).toBe(before);

    await sim.control.clearFaults();
    elapse(MINUTE);
    await rig.runner.runResource('singleOrder');
    expect(getMirror(rig.store, 'singleOrder', String(order['_id']))).toBeDefined();
  });

  for (const offset of [10 * MINUTE, -10 * MINUTE]) {
    it(`loses nothing when the platform clock is ${offset / MINUTE} minutes off`, async () => {
      simClock.advance(offset);
      await rig.runner.runAll(['singleOrder']);
      expect(Math.abs(rig.client.skewMs() - offset)).toBeLessThanOrEqual(1_000);
      elapse(3 * MINUTE);
      // Not a created order: the created list's look-back would find it whatever the watermark.
      const order = await createdOrder({ status: 3, salesId: 'V-4711' });
      elapse(3 * MINUTE);
      await rig.runner.runResource('singleOrder');
      expect(getMirror(rig.store, 'singleOrder', String(order['_id']))).toBeDefined();
    });
  }

  it('quarantines a malformed record and pulls the rest', async () => {
    const bad = await createdOrder({ accountingMonth: 'März' });
    const good = await createdOrder();
    const [created] = (await rig.runner.runResource('singleOrder')) ?? [];
    expect(created).toMatchObject({ filter: 'created', ok: true, quarantined: 1 });
    expect(getMirror(rig.store, 'singleOrder', String(good['_id']))).toBeDefined();
    const [entry] = listQuarantine(rig.store, { resource: 'singleOrder' });
    expect(entry?.recordId).toBe(bad['_id']);
    expect(entry?.reason).toMatch(
      /^singleOrder record does not match the contract: accountingMonth: /,
    );
  });

  it('retries transient errors and succeeds', async () => {
    await sim.control.setFault({ path: '/doctor', errorRate: 1, errorStatus: 503, times: 2 });
    await sim.control.clearRequests();
    const [doctors] = (await rig.runner.runResource('doctor')) ?? [];
    expect(doctors).toMatchObject({ ok: true });
    expect(doctors?.fresh).toBeGreaterThan(0);
    const tries = (await sim.control.requests()).filter((r) => r.path.startsWith('/doctor'));
    expect(tries.map((r) => r.status)).toEqual([503, 503, 200]);
  });
});

describe('reconciliation and overlapping runs', () => {
  let sim: TestSimulator;
  let simClock: FakeClock;
  let rig: PullRig;

  beforeEach(async () => {
    simClock = new FakeClock(SIM_START);
    sim = await startTestSimulator({ variant: 'B', clock: simClock, seed: 3 });
    rig = startPullRig(sim.url, 'B');
  });
  afterEach(async () => {
    await rig.close();
    await sim.close();
  });

  it('finds a change the incremental pulls missed and leaves the checkpoints alone', async () => {
    await rig.runner.runAll(['doctor']);
    // A change stamped an hour in the past (a platform that commits late) is behind the watermark.
    simClock.advance(-3_600_000);
    const late = await sim.control.createRecord('doctor', { lastName: 'Spät', firstName: 'Dora' });
    simClock.advance(3_600_000 + 60_000);
    rig.clock.advance(60_000);
    const [incremental] = (await rig.runner.runResource('doctor')) ?? [];
    expect(incremental).toMatchObject({ ok: true, fresh: 0 });
    expect(getMirror(rig.store, 'doctor', String(late['_id']))).toBeUndefined();

    const reconciled = (await rig.runner.reconcile(7)).filter((s) => s.resource === 'doctor');
    expect(reconciled).toHaveLength(1);
    expect(reconciled[0]).toMatchObject({
      mode: 'reconcile',
      ok: true,
      fresh: 1,
      watermark: undefined,
    });
    expect(getMirror(rig.store, 'doctor', String(late['_id']))).toBeDefined();
    expect(getCheckpoint(rig.store, 'doctor', '')?.watermark).toBe(incremental?.watermark);
  });

  it('never runs two pulls of one resource at once; the second is skipped', async () => {
    await sim.control.setFault({ path: '/payer', latencyMs: 300 });
    const first = rig.runner.runResource('payer');
    await eventually('the first pull to wait for its list', () => simClock.sleeping() > 0);
    // Skipped at once, while the first still waits.
    expect(await rig.runner.runResource('payer')).toBeUndefined();
    const { value: pulled } = await answeringUntil(sim, 300, first);
    expect(pulled?.length).toBe(1);
    const calls = (await sim.control.requests()).filter((r) => r.path.startsWith('/payer'));
    expect(calls).toHaveLength(1);
  });
});
