import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { getCheckpoint, getLedgerEntry } from '../../../src/store/index.js';
import { startPullRig, type PullRig } from '../../support/daemon.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

let sim: TestSimulator;
let rig: PullRig | undefined;

beforeAll(async () => {
  sim = await startTestSimulator({ seed: 5, sizes: { articles: 20 } });
});
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});
afterAll(async () => {
  await sim.close();
});

const HOUR = 3_600_000;

describe("the platform's clock steps back", () => {
  it('a patient created after a step back of one hour reaches the ledger within two pulls', async () => {
    rig = startPullRig(sim.url, 'B');
    expect((await rig.runner.runAll()).every((s) => s.ok)).toBe(true);
    const before = getCheckpoint(rig.store, 'patient', '')?.watermark ?? '';

    await sim.control.moveClock({ offsetMs: -HOUR });
    const created = await sim.control.createRecord('patient', { lastName: 'Stepped' });
    const id = String(created['_id']);
    const version = String(created['updatedAt']);
    expect(Date.parse(version)).toBeLessThan(Date.parse(before) - HOUR / 2);

    const seen = () => getLedgerEntry(rig!.store, 'patient', id, version) !== undefined;
    for (let pull = 0; pull < 2 && !seen(); pull++) {
      const summaries = await rig.runner.runAll();
      expect(summaries.every((s) => s.ok)).toBe(true);
    }
    expect(seen()).toBe(true);
    // The watermark followed the platform's clock back instead of staying an hour ahead of it.
    const after = getCheckpoint(rig.store, 'patient', '')?.watermark ?? '';
    expect(Date.parse(after)).toBeLessThan(Date.parse(before));
  });

  it('a step back while the daemon was stopped: a patient created after it arrives within two pulls', async () => {
    rig = startPullRig(sim.url, 'B');
    expect((await rig.runner.runAll()).every((s) => s.ok)).toBe(true);
    const before = getCheckpoint(rig.store, 'patient', '')?.watermark ?? '';

    // Stopped for ten minutes; meanwhile the platform's clock stepped back an hour.
    await rig.restart();
    rig.clock.advance(10 * 60_000);
    await sim.control.moveClock({ offsetMs: 10 * 60_000 - HOUR });
    const created = await sim.control.createRecord('patient', { lastName: 'Restarted' });
    const version = String(created['updatedAt']);
    expect(Date.parse(version)).toBeLessThan(Date.parse(before) - HOUR / 2);

    const seen = () =>
      getLedgerEntry(rig!.store, 'patient', String(created['_id']), version) !== undefined;
    const [first] = (await rig.runner.runResource('patient')) ?? [];
    expect(first?.notice).toContain('stepped back');
    if (!seen()) await rig.runner.runResource('patient');
    expect(seen()).toBe(true);
  });

  it('the local clock stepping ahead moves no watermark back', async () => {
    rig = startPullRig(sim.url, 'B');
    await rig.runner.runAll();
    const before = getCheckpoint(rig.store, 'patient', '')?.watermark ?? '';
    rig.clock.advance(HOUR);
    await rig.runner.runAll();
    const after = getCheckpoint(rig.store, 'patient', '')?.watermark ?? '';
    expect(Date.parse(after)).toBeGreaterThanOrEqual(Date.parse(before));
  });
});
