import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countUndelivered } from '../../../src/store/index.js';
import { SIM_START, startPullRig, type PullRig } from '../../support/daemon.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

describe.each(['A', 'B'] as const)('the patient history pull in variant %s', (variant) => {
  let sim: TestSimulator;
  let simClock: FakeClock;
  let rig: PullRig;

  beforeEach(async () => {
    simClock = new FakeClock(SIM_START);
    sim = await startTestSimulator({ variant, clock: simClock });
    rig = startPullRig(sim.url, variant);
  });
  afterEach(async () => {
    await rig.close();
    await sim.close();
  });

  // Spec document 2: "GET /patientHistory: query updatedAfter (required). Response: array of
  // history entries." — entries without _id or timestamp, so the daemon keys them by
  // entity/entityId/createdAt/status and versions them by createdAt.
  it('brings every seeded entry to the ledger, then only new entries', async () => {
    const [first] = (await rig.runner.runResource('patientHistory')) ?? [];
    expect(first).toMatchObject({ ok: true, fetched: 15, fresh: 15, quarantined: 0 });
    expect(countUndelivered(rig.store)).toBe(15);

    simClock.advance(600_000);
    rig.clock.advance(600_000);
    const patient = await sim.control.getRecord('patient', await firstPatientId(sim));
    await sim.control.createRecord('patientHistory', {
      status: 'created',
      createdBy: 'platform-user',
      createdAt: new Date(Date.parse(SIM_START) + 600_000).toISOString(),
      entity: 'patient',
      entityId: patient._id,
      therapy: 'Stoma',
      therapyType: '11',
    });
    simClock.advance(60_000);
    rig.clock.advance(60_000);
    const [second] = (await rig.runner.runResource('patientHistory')) ?? [];
    expect(second).toMatchObject({ ok: true, fetched: 1, fresh: 1 });
  });
});

async function firstPatientId(sim: TestSimulator): Promise<string> {
  const response = await fetch(`${sim.url}/patient`, {
    headers: { 'service-api-key': 'demo-key' },
  });
  const patients = (await response.json()) as Array<{ _id: string }>;
  return patients[0]?._id ?? '';
}
