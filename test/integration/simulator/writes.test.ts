import { describe, expect, it } from 'vitest';
import { api, useSimulator, type TestSimulator } from '../../support/simulator.js';

type Row = Record<string, unknown>;
const problemsOf = (json: unknown): string => (json as { problems: string[] }).problems.join(' | ');

async function patientIn(sim: TestSimulator, fields: Row = {}): Promise<Row> {
  return sim.control.createRecord('patient', {
    lastName: 'Muster',
    regionId: 'region-7',
    ...fields,
  });
}

describe('patients', () => {
  const sim = useSimulator({ variant: 'B' });

  it('gives new care givers an id, removes toDelete ones and archives on request', async () => {
    const created = await api(sim(), 'POST', '/patient', {
      body: {
        lastName: 'P',
        customerId: 'K-1',
        careGivers: [{ lastName: 'A' }, { lastName: 'B' }],
      },
    });
    expect(created.status).toBe(201);
    const patient = created.json as Row;
    const [a, b] = patient.careGivers as Row[];
    expect(a?._id).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
    const answer = await api(sim(), 'PATCH', `/patient/${String(patient._id)}`, {
      body: {
        careGivers: [
          { _id: a?._id, toDelete: true },
          { _id: b?._id, archived: true },
          { lastName: 'C' },
        ],
      },
    });
    expect(answer.status).toBe(200);
    const after = (answer.json as Row).careGivers as Row[];
    expect(after.map((c) => [c.lastName, c.archived])).toEqual([
      ['B', true],
      ['C', false],
    ]);
    expect(after.every((c) => !('toDelete' in c))).toBe(true);
  });

  it('keeps customerId unique per tenant on create and update', async () => {
    await api(sim(), 'POST', '/patient', { body: { lastName: 'X', customerId: 'K-9' } });
    const again = await api(sim(), 'POST', '/patient', {
      body: { lastName: 'Y', customerId: 'K-9' },
    });
    expect(again.status).toBe(409);
    expect(problemsOf(again.json)).toContain('customerId');
    const other = (
      await api(sim(), 'POST', '/patient', { body: { lastName: 'Z', customerId: 'K-10' } })
    ).json as Row;
    const clash = await api(sim(), 'PATCH', `/patient/${String(other._id)}`, {
      body: { customerId: 'K-9' },
    });
    expect(clash.status).toBe(409);
    const elsewhere = await api(sim(), 'POST', '/patient', {
      key: 'other-tenant-key',
      body: { lastName: 'Y', customerId: 'K-9' },
    });
    expect(elsewhere.status).toBe(201);
  });
});

describe('care arrangements, ERP orders, devices, notes (variant B)', () => {
  const sim = useSimulator({ variant: 'B' });

  it('POST /integratedCare answers only {_id, updated} and takes the region from the patient', async () => {
    const patient = await patientIn(sim());
    const answer = await api(sim(), 'POST', '/integratedCare', {
      body: { patientId: patient._id, therapyId: 3, therapyTypeId: 1, isInitialCare: true },
    });
    expect(answer.status).toBe(201);
    const body = answer.json as Row;
    expect(Object.keys(body).sort()).toEqual(['_id', 'updated']);
    const stored = await sim().control.getRecord('integratedCare', String(body._id));
    expect(stored).toMatchObject({ regionId: 'region-7', patientId: patient._id });
    expect(stored.standardCareProposalId).toEqual(expect.any(String));
  });

  it('POST /integratedCare needs patientId, therapyId and isInitialCare, and a known patient', async () => {
    const missing = await api(sim(), 'POST', '/integratedCare', { body: { therapyId: 1 } });
    expect(missing.status).toBe(400);
    expect(problemsOf(missing.json)).toContain('patientId is required');
    expect(problemsOf(missing.json)).toContain('isInitialCare is required');
    const unknown = await api(sim(), 'POST', '/integratedCare', {
      body: {
        patientId: '1b4e28ba-2fa1-4d3b-a3f5-ef19b5a7633b',
        therapyId: 1,
        isInitialCare: false,
      },
    });
    expect(unknown.status).toBe(400);
    expect(problemsOf(unknown.json)).toContain('patientId');
  });

  it('PATCH /integratedCare merges seriesData by _id', async () => {
    const patient = await patientIn(sim());
    const care = await sim().control.createRecord('integratedCare', {
      patientId: patient._id,
      therapyId: 2,
      seriesData: [
        { _id: 's-1', dayOfDelivery: 1, deliveryNote: 'keep' },
        { _id: 's-2', dayOfDelivery: 2 },
      ],
    });
    const answer = await api(sim(), 'PATCH', `/integratedCare/${String(care._id)}`, {
      body: { seriesData: [{ _id: 's-1', dayOfDelivery: 5 }, { dayOfDelivery: 6 }] },
    });
    expect(answer.status).toBe(200);
    const series = (answer.json as Row).seriesData as Row[];
    expect(series).toHaveLength(3);
    expect(series[0]).toMatchObject({ _id: 's-1', dayOfDelivery: 5, deliveryNote: 'keep' });
    expect(series[1]).toMatchObject({ _id: 's-2', dayOfDelivery: 2 });
    expect(series[2]).toMatchObject({ dayOfDelivery: 6 });
    expect(typeof series[2]?._id).toBe('string');
    expect(answer.json).toMatchObject({ regionId: 'region-7' });
  });

  it('POST /erpOrder refuses an existing salesId; PUT and GET /erpOrder/{salesId} work', async () => {
    const patient = await patientIn(sim());
    const body = {
      salesId: 'AU-500',
      patientId: patient._id,
      outboundDate: '2026-03-02T10:00:00Z',
      deliveryAddress: { name: 'Muster', city: 'Köln' },
      erpOrderedArticleLines: [{ articleId: 'a', quantity: 2 }],
      // Variant B's schema marks every field required.
      annotation: '',
      prescriptionStatus: 'requested',
      trackingLink: '',
      therapyId: 3,
      completed: false,
      trackingInfo: [],
    };
    const first = await api(sim(), 'POST', '/erpOrder', { body });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ regionId: 'region-7', salesId: 'AU-500' });
    const again = await api(sim(), 'POST', '/erpOrder', { body });
    expect(again.status).toBe(409);
    expect(problemsOf(again.json)).toMatch(/^salesId: /);
    const put = await api(sim(), 'PUT', '/erpOrder/AU-500', {
      body: { ...body, trackingInfo: [{ trackingCode: 'T1' }] },
    });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({
      _id: (first.json as Row)._id,
      trackingInfo: [{ trackingCode: 'T1' }],
    });
    expect((await api(sim(), 'GET', '/erpOrder/AU-500')).json).toMatchObject({
      trackingInfo: [{ trackingCode: 'T1' }],
    });
    const empty = await api(sim(), 'POST', '/erpOrder', {
      body: { ...body, salesId: 'AU-501', erpOrderedArticleLines: [] },
    });
    expect(problemsOf(empty.json)).toContain('erpOrderedArticleLines needs at least one entry');
  });

  it('POST and PUT /device answer {_id, serialNumber, updated}; PUT takes the id in path or query', async () => {
    const patient = await patientIn(sim());
    const body = { patientId: patient._id, serialNumber: 'SN-1', description: 'Pumpe' };
    expect((await api(sim(), 'POST', '/device', { body: { ...body, _id: 'x' } })).status).toBe(400);
    const created = await api(sim(), 'POST', '/device', { body });
    expect(created.status).toBe(201);
    const ack = created.json as Row;
    expect(Object.keys(ack).sort()).toEqual(['_id', 'serialNumber', 'updated']);
    const id = String(ack._id);
    const byPath = await api(sim(), 'PUT', `/device/${id}`, {
      body: { ...body, description: 'P2' },
    });
    expect(byPath.json).toMatchObject({ _id: id, serialNumber: 'SN-1' });
    const byQuery = await api(sim(), 'PUT', `/device?id=${id}`, {
      body: { ...body, description: 'P3' },
    });
    expect(byQuery.status).toBe(200);
    expect((await api(sim(), 'GET', `/device/${id}`)).json).toMatchObject({
      description: 'P3',
      regionId: 'region-7',
    });
    const withoutId = await api(sim(), 'PUT', '/device', { body });
    expect(withoutId.status).toBe(400);
  });

  it('patient notes take the region from the patient', async () => {
    const patient = await patientIn(sim());
    const note = await api(sim(), 'POST', '/patientNote', {
      body: { patientId: patient._id, noteText: 'Hallo', status: 1 },
    });
    expect(note.status).toBe(201);
    expect(note.json).toMatchObject({ regionId: 'region-7', edited: false });
  });
});

describe('product groups (variant B)', () => {
  const sim = useSimulator({ variant: 'B' });
  const post = (body: Row) => api(sim(), 'POST', '/productGroup', { body });

  it('keeps the levels: OWG without parent, WG under OWG, TWG under OWG or WG', async () => {
    const owg = (await post({ name: 'OWG', type: 0 })).json as Row;
    const wg = await post({ name: 'WG', type: 1, parentId: owg._id });
    expect(wg.status).toBe(201);
    const twg = await post({ name: 'TWG', type: 2, parentId: (wg.json as Row)._id });
    expect(twg.status).toBe(201);
    const refused: Row[] = [
      { name: 'x', type: 0, parentId: owg._id },
      { name: 'x', type: 1 },
      { name: 'x', type: 1, parentId: (wg.json as Row)._id },
      { name: 'x', type: 2, parentId: (twg.json as Row)._id },
    ];
    for (const body of refused) {
      const answer = await post(body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(problemsOf(answer.json)).toMatch(/^parentId: /);
    }
  });

  it('refuses _id and archived true on create; PATCH may send only the name', async () => {
    expect(problemsOf((await post({ name: 'x', type: 0, _id: 'a' })).json)).toContain('_id');
    expect(problemsOf((await post({ name: 'x', type: 0, archived: true })).json)).toContain(
      'archived must not be true',
    );
    const group = (await post({ name: 'Alt', type: 0 })).json as Row;
    const refused = await api(sim(), 'PATCH', `/productGroup/${String(group._id)}`, {
      body: { name: 'Neu', type: 2 },
    });
    expect(refused.status).toBe(400);
    const patched = await api(sim(), 'PATCH', `/productGroup/${String(group._id)}`, {
      body: { name: 'Neu' },
    });
    expect(patched.json).toMatchObject({ name: 'Neu', type: 0 });
    const noName = await api(sim(), 'PATCH', `/productGroup/${String(group._id)}`, { body: {} });
    expect(problemsOf(noName.json)).toContain('name is required');
  });
});
