import { describe, expect, it } from 'vitest';
import type { Variant } from '../../../src/contract/index.js';
import type { LoopSuppression } from '../../../src/simulator/index.js';
import { useAppCycle } from '../../support/appCycle.js';
import { api } from '../../support/simulator.js';

const RESOURCES = ['patient', 'article'] as const;
type Row = Record<string, unknown>;

/**
 * Spec document 1, rule 2: "Changes made through the API with a given API key ... are left out of
 * the next synchronisation result for that client. ... This prevents endless loops." Whether
 * "next" means one pull or every pull until someone else changes the record, what the ERP sent
 * never comes back to it; a platform user's change afterwards does.
 */
describe.each([
  ['next', 'B'],
  ['until-changed', 'B'],
  ['next', 'C'],
  ['until-changed', 'C'],
] as [LoopSuppression, Variant][])(
  'loop suppression %s, variant %s: no ping-pong with the ERP',
  (loopSuppression, variant) => {
    const cycle = useAppCycle({ variant, loopSuppression });
    const pass = async () => {
      const report = await cycle().pass(RESOURCES);
      expect(report.ok, JSON.stringify(report.pulls.filter((p) => !p.ok))).toBe(true);
    };
    const filesOf = (resource: string, id: string) =>
      cycle()
        .rig.outboxFiles(resource)
        .filter((f) => f.startsWith(id));

    it('hands the ERP nothing of its own patient and article changes, then a user change', async () => {
      const { sim, rig, app } = cycle();
      const patients = (await api(sim, 'GET', '/patient')).json as Row[];
      const patient = patients.find((p) => typeof p.customerId === 'string' && !p.archived);
      if (!patient) throw new Error('the seed has no patient with a customerId');
      const patientId = String(patient._id);
      const status = variant === 'B' ? '&status=created' : '';
      const articleList = `/article?updatedAfter=1970-01-01T00:00:00.000Z${status}`;
      const articles = (await api(sim, 'GET', articleList)).json as Row[];
      const article = articles.find((a) => !a.archived);
      if (!article) throw new Error('the seed has no live article');
      const articleId = String(article._id);

      await pass();
      expect(filesOf('patient', patientId)).toHaveLength(1);
      expect(filesOf('article', articleId)).toHaveLength(1);

      rig.drop('patient', 'patient-1.json', {
        customerId: patient.customerId,
        lastName: 'Neumann',
        phone: '0221 555 01',
      });
      rig.drop('article', 'article-1.json', {
        customerNumber: article.customerNumber,
        name: 'Saugkompresse steril 10 x 20 cm',
        packagingUnits: [{ quantity: 25, unit: 'Stk', pcn: '12345678' }],
      });
      await pass();
      expect(await sim.control.getRecord('patient', patientId)).toMatchObject({
        lastName: 'Neumann',
      });
      expect(await sim.control.getRecord('article', articleId)).toMatchObject({
        name: 'Saugkompresse steril 10 x 20 cm',
      });

      // Longer than the overlap window: under `next` the changes come back in these pulls.
      for (let round = 0; round < 4; round++) await pass();
      expect(filesOf('patient', patientId)).toHaveLength(1);
      expect(filesOf('article', articleId)).toHaveLength(1);
      const echoes = app.store.db
        .prepare<[string], { n: number }>(
          `SELECT count(*) AS n FROM ledger WHERE _id = ? AND delivered_at IS NOT NULL`,
        )
        .get(patientId);
      expect(echoes?.n).toBe(loopSuppression === 'next' ? 2 : 1);

      await sim.control.patchRecord('patient', patientId, { phone: '0221 555 99' });
      await pass();
      const files = filesOf('patient', patientId);
      expect(files).toHaveLength(2);
    });
  },
);

/**
 * Spec document 1, rule 3: "Exception for SingleOrder, DirectOrder and IntegratedCare: control is
 * by status change." The platform does not leave our own order PATCHes out of our pulls at all;
 * the versions they make (our acknowledgement, the ERP's status and salesId) come back under
 * their new status and are recognised as ours, so the ERP does not get its own report back.
 */
describe('orders: our own status and salesId PATCHes coming back', () => {
  const cycle = useAppCycle({ variant: 'B' });
  const pass = async () => {
    const report = await cycle().pass(['patient', 'article', 'integratedCare', 'singleOrder']);
    expect(report.ok, JSON.stringify(report.pulls.filter((p) => !p.ok))).toBe(true);
  };

  it('are not handed to the ERP; a platform user change afterwards is', async () => {
    const { sim, rig } = cycle();
    const created = await api(
      sim,
      'GET',
      '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
      { key: 'demo-key-2' },
    );
    const order = (created.json as Row[])[0];
    if (!order) throw new Error('the seed has no created single order');
    const id = String(order._id);
    const files = () => rig.outboxFiles('singleOrder').filter((f) => f.startsWith(id));

    await pass();
    expect(files()).toHaveLength(1);
    rig.drop('orderStatus', 'order-1.json', {
      orderType: 'single',
      id,
      status: 3,
      salesId: 'AU-9',
    });
    for (let round = 0; round < 4; round++) await pass();
    expect(await sim.control.getRecord('singleOrder', id)).toMatchObject({ status: 3 });
    expect(files()).toHaveLength(1);

    await sim.control.patchRecord('singleOrder', id, { deliveryDate: '2026-03-09' });
    await pass();
    expect(files()).toHaveLength(2);
  });
});
