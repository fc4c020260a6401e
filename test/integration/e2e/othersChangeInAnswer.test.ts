import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResourceName, Variant } from '../../../src/contract/index.js';
import type { LoopSuppression } from '../../../src/simulator/index.js';
import { useAppCycle, type AppCycle } from '../../support/appCycle.js';
import { api } from '../../support/simulator.js';

type Row = Record<string, unknown>;

/** One pass over `resources`, which must all succeed. */
async function passOk(cycle: AppCycle, resources: readonly ResourceName[]): Promise<void> {
  const report = await cycle.pass(resources);
  expect(report.ok, JSON.stringify(report.pulls.filter((p) => !p.ok))).toBe(true);
}

async function livePatient(cycle: AppCycle): Promise<Row & { _id: string }> {
  const patients = (await api(cycle.sim, 'GET', '/patient')).json as Row[];
  const patient = patients.find((p) => typeof p.customerId === 'string' && !p.archived);
  if (!patient) throw new Error('the seed has no patient with a customerId');
  return { ...patient, _id: String(patient._id) };
}

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
    const cycle = useAppCycle({ variant, loopSuppression });
    const both = ['patient', 'article'] as const;
    const filesOf = (id: string) =>
      cycle()
        .rig.outboxFiles('patient')
        .filter((f) => f.startsWith(id));
    const handed = (file: string) =>
      JSON.parse(readFileSync(join(cycle().rig.outbox, 'patient', file), 'utf8')) as Row;

    it('reaches the ERP once, with our own change beside it', async () => {
      const { sim, rig } = cycle();
      const patient = await livePatient(cycle());
      await passOk(cycle(), both);
      expect(filesOf(patient._id)).toHaveLength(1);

      await sim.control.patchRecord('patient', patient._id, { phone: '0221 555 77' });
      rig.drop('patient', 'patient-1.json', {
        customerId: patient.customerId,
        lastName: 'Neumann',
      });
      // Only articles are pulled: the ERP's change is written before the patient list is read.
      await passOk(cycle(), ['article']);
      expect(await sim.control.getRecord('patient', patient._id)).toMatchObject({
        phone: '0221 555 77',
        lastName: 'Neumann',
      });

      for (let round = 0; round < 4; round++) await passOk(cycle(), both);
      const files = filesOf(patient._id);
      expect(files).toHaveLength(2);
      const latest = files.map(handed).find((record) => record.phone === '0221 555 77');
      expect(latest).toMatchObject({ lastName: 'Neumann' });
    });

    it('reaches the ERP when the edit falls between two writes of ours', async () => {
      const { sim, rig } = cycle();
      const patient = await livePatient(cycle());
      await passOk(cycle(), both);
      rig.drop('patient', 'patient-1.json', { customerId: patient.customerId, lastName: 'Erst' });
      await passOk(cycle(), ['article']);
      // The user's edit comes after our first write; our second write's answer carries it.
      await sim.control.patchRecord('patient', patient._id, { phone: '0221 555 88' });
      rig.drop('patient', 'patient-2.json', { customerId: patient.customerId, lastName: 'Zweit' });
      await passOk(cycle(), ['article']);

      for (let round = 0; round < 4; round++) await passOk(cycle(), both);
      const latest = filesOf(patient._id)
        .map(handed)
        .find((record) => record.phone === '0221 555 88');
      expect(latest).toMatchObject({ lastName: 'Zweit' });
    });

    it('hands the ERP nothing for the empty fields the platform fills in on our write', async () => {
      const { sim, rig } = cycle();
      // A patient without careGivers: the platform's answer to a write carries `careGivers: []`.
      const made = await sim.control.createRecord('patient', {
        customerId: 'K-77',
        lastName: 'Ohne',
      });
      const id = String(made._id);
      await passOk(cycle(), both);
      expect(filesOf(id)).toHaveLength(1);
      rig.drop('patient', 'patient-1.json', { customerId: 'K-77', lastName: 'Ohneberg' });
      await passOk(cycle(), ['article']);
      for (let round = 0; round < 4; round++) await passOk(cycle(), both);
      expect(filesOf(id)).toHaveLength(1);
    });

    it('hands the ERP nothing when the answer carries only our change', async () => {
      const patient = await livePatient(cycle());
      await passOk(cycle(), both);
      cycle().rig.drop('patient', 'patient-1.json', {
        customerId: patient.customerId,
        lastName: 'Neumann',
      });
      await passOk(cycle(), ['article']);
      for (let round = 0; round < 4; round++) await passOk(cycle(), both);
      expect(filesOf(patient._id)).toHaveLength(1);
    });
  },
);

describe("orders: a user's edit inside the answer to our status PATCH", () => {
  const cycle = useAppCycle({ variant: 'B' });

  it('reaches the ERP once', async () => {
    const { sim, rig } = cycle();
    const resources = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;
    const created = await api(
      sim,
      'GET',
      '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
    );
    const order = (created.json as Row[])[0];
    if (!order) throw new Error('the seed has no created single order');
    const id = String(order._id);
    const files = () => rig.outboxFiles('singleOrder').filter((f) => f.startsWith(id));
    await passOk(cycle(), resources);
    expect(files()).toHaveLength(1);

    await sim.control.patchRecord('singleOrder', id, { deliveryDate: '2026-03-09' });
    rig.drop('orderStatus', 'order-1.json', {
      orderType: 'single',
      id,
      status: 3,
      salesId: 'AU-9',
    });
    await passOk(cycle(), ['patient']);
    for (let round = 0; round < 4; round++) await passOk(cycle(), resources);
    expect(files()).toHaveLength(2);
  });
});
