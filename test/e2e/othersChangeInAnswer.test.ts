import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/app/app.js';
import { syncOnce } from '../../src/app/syncOnce.js';
import type { ResourceName, Variant } from '../../src/contract/index.js';
import type { LoopSuppression } from '../../src/simulator/index.js';
import { appRig, type AppRig } from '../support/appRig.js';
import { FakeClock } from '../support/fakeClock.js';
import { api, startTestSimulator, type TestSimulator } from '../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';
type Row = Record<string, unknown>;

/**
 * #23.1: a platform user edits a record after our last pull, then the ERP's change to it is
 * written. The write's answer carries both; under "left out until someone else changes it"
 * (spec document 1, rule 2) it is the only version that shows the user's edit. It must reach
 * the ERP once, whichever reading the platform follows.
 */
describe.each([
  ['next', 'B'],
  ['until-changed', 'B'],
  ['until-changed', 'C'],
  ['next', 'A'],
] as [LoopSuppression, Variant][])(
  "loop suppression %s, variant %s: a user's edit inside our write's answer",
  (loopSuppression, variant) => {
    let sim: TestSimulator;
    let simClock: FakeClock;
    let rig: AppRig;
    let app: App;

    beforeEach(async () => {
      simClock = new FakeClock(START);
      sim = await startTestSimulator({ variant, clock: simClock, loopSuppression });
      rig = appRig(sim.url, variant, START);
      app = await rig.open();
    });
    afterEach(async () => {
      await app.close();
      await sim.close();
      rig.cleanup();
    });

    const pass = async (resources: readonly ResourceName[] = ['patient', 'article']) => {
      simClock.advance(60_000);
      rig.clock.advance(60_000);
      const report = await syncOnce(app, resources);
      expect(report.ok, JSON.stringify(report.pulls.filter((p) => !p.ok))).toBe(true);
    };
    const filesOf = (id: string) => rig.outboxFiles('patient').filter((f) => f.startsWith(id));
    const handed = (file: string) =>
      JSON.parse(readFileSync(join(rig.outbox, 'patient', file), 'utf8')) as Row;

    it('reaches the ERP once, with our own change beside it', async () => {
      const patients = (await api(sim, 'GET', '/patient')).json as Row[];
      const patient = patients.find((p) => typeof p.customerId === 'string' && !p.archived);
      if (!patient) throw new Error('the seed has no patient with a customerId');
      const id = String(patient._id);

      await pass();
      expect(filesOf(id)).toHaveLength(1);

      await sim.control.patchRecord('patient', id, { phone: '0221 555 77' });
      rig.drop('patient', 'patient-1.json', {
        customerId: patient.customerId,
        lastName: 'Neumann',
      });
      // Only articles are pulled: the ERP's change is written before the patient list is read.
      await pass(['article']);
      expect(await sim.control.getRecord('patient', id)).toMatchObject({
        phone: '0221 555 77',
        lastName: 'Neumann',
      });

      for (let round = 0; round < 4; round++) await pass();
      const files = filesOf(id);
      expect(files).toHaveLength(2);
      const latest = files.map(handed).find((record) => record.phone === '0221 555 77');
      expect(latest).toMatchObject({ lastName: 'Neumann' });
    });

    it('hands the ERP nothing when the answer carries only our change', async () => {
      const patients = (await api(sim, 'GET', '/patient')).json as Row[];
      const patient = patients.find((p) => typeof p.customerId === 'string' && !p.archived);
      if (!patient) throw new Error('the seed has no patient with a customerId');
      const id = String(patient._id);
      await pass();
      rig.drop('patient', 'patient-1.json', {
        customerId: patient.customerId,
        lastName: 'Neumann',
      });
      await pass(['article']);
      for (let round = 0; round < 4; round++) await pass();
      expect(filesOf(id)).toHaveLength(1);
    });
  },
);

describe("orders: a user's edit inside the answer to our status PATCH", () => {
  let sim: TestSimulator;
  let simClock: FakeClock;
  let rig: AppRig;
  let app: App;

  beforeEach(async () => {
    simClock = new FakeClock(START);
    sim = await startTestSimulator({ variant: 'B', clock: simClock });
    rig = appRig(sim.url, 'B', START);
    app = await rig.open();
  });
  afterEach(async () => {
    await app.close();
    await sim.close();
    rig.cleanup();
  });

  it('reaches the ERP once', async () => {
    const resources = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;
    const pass = async (only: readonly ResourceName[] = resources) => {
      simClock.advance(60_000);
      rig.clock.advance(60_000);
      const report = await syncOnce(app, only);
      expect(report.ok, JSON.stringify(report.pulls.filter((p) => !p.ok))).toBe(true);
    };
    const created = await api(
      sim,
      'GET',
      '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
    );
    const order = (created.json as Row[])[0];
    if (!order) throw new Error('the seed has no created single order');
    const id = String(order._id);
    const files = () => rig.outboxFiles('singleOrder').filter((f) => f.startsWith(id));
    await pass();
    expect(files()).toHaveLength(1);

    await sim.control.patchRecord('singleOrder', id, { deliveryDate: '2026-03-09' });
    rig.drop('orderStatus', 'order-1.json', {
      orderType: 'single',
      id,
      status: 3,
      salesId: 'AU-9',
    });
    await pass(['patient']);
    for (let round = 0; round < 4; round++) await pass();
    expect(files()).toHaveLength(2);
  });
});
