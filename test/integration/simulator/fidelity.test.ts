import { describe, expect, it } from 'vitest';
import {
  SERIES_STATUS_NOT_TRANSMITTED,
  SERIES_STATUS_TRANSMITTED,
} from '../../../src/contract/index.js';
import { api, useSimulator, type TestSimulator } from '../../support/simulator.js';

type Row = Record<string, unknown>;
const EPOCH = '1970-01-01T00:00:00.000Z';
const problemsOf = (json: unknown): string => (json as { problems: string[] }).problems.join(' | ');

async function list(sim: TestSimulator, path: string, key = 'demo-key'): Promise<Row[]> {
  const answer = await api(sim, 'GET', path, { key });
  expect(answer.status, `${path}: ${answer.text}`).toBe(200);
  return answer.json as Row[];
}

describe('patient history (variant B)', () => {
  const sim = useSimulator({ variant: 'B' });

  // Spec document 2, "GET /patientHistory: query updatedAfter (required). Response: array of
  // history entries." and "Patient history entry: All strings: status, createdBy, createdAt,
  // entity, entityId, ...": entries carry no _id, yet each is its own row.
  it('returns every seeded history entry, each its own row, filtered by updatedAfter', async () => {
    const all = await list(sim(), `/patientHistory?updatedAfter=${EPOCH}`);
    expect(all).toHaveLength(15);
    const keys = new Set(all.map((e) => `${String(e.entityId)}/${String(e.createdAt)}`));
    expect(keys.size).toBeGreaterThan(1);
    const times = all.map((e) => String(e.createdAt)).sort();
    const middle = times[7] ?? EPOCH;
    const later = await list(sim(), `/patientHistory?updatedAfter=${middle}`);
    expect(later.length).toBe(times.filter((t) => t > middle).length);
    expect(later.length).toBeGreaterThan(0);
  });
});

describe('orders leave status=created only by a status change', () => {
  const sim = useSimulator({ variant: 'B' });

  // Spec document 1, rule 3: "control is by status change. After the client PATCHes the status
  // (for example from created to transmitted), the record no longer appears under status=created."
  it('keeps an order under status=created after a PATCH of annotation or salesId alone', async () => {
    const created = await list(sim(), `/singleOrder?status=created&updatedAfter=${EPOCH}`);
    const [first, second] = created;
    if (!first || !second) throw new Error('the seed has too few created orders');
    for (const [order, body] of [
      [first, { annotation: 'Rückruf erbeten' }],
      [second, { salesId: 'AU-77' }],
    ] as const) {
      const answer = await api(sim(), 'PATCH', `/singleOrder/${String(order._id)}`, { body });
      expect(answer.status).toBe(200);
    }
    const after = await list(sim(), `/singleOrder?status=created&updatedAfter=${EPOCH}`);
    expect(after.map((o) => o._id)).toEqual(expect.arrayContaining([first._id, second._id]));

    await api(sim(), 'PATCH', `/singleOrder/${String(first._id)}`, { body: { status: 1 } });
    const acknowledged = await list(sim(), `/singleOrder?status=created&updatedAfter=${EPOCH}`);
    expect(acknowledged.map((o) => o._id)).not.toContain(first._id);
  });
});

describe('attachments archived after (variant B)', () => {
  const sim = useSimulator({ variant: 'B' });

  // Spec document 2, GET /attachment: "`archivedAfter` (variant B, optional; attachments
  // archived after that time)".
  it('returns only archived attachments for archivedAfter alone', async () => {
    const live = await list(sim(), '/attachment');
    expect(live.length).toBeGreaterThan(0);
    const archived = await list(sim(), `/attachment?archivedAfter=${EPOCH}`);
    expect(archived.length).toBeGreaterThan(0);
    expect(archived.every((a) => (a.metadata as Row).archived === true)).toBe(true);
    const both = await list(sim(), `/attachment?archivedAfter=${EPOCH}&createdAfter=${EPOCH}`);
    expect(both.length).toBe(live.length + archived.length);
  });
});

describe('ERP orders in variant B', () => {
  const sim = useSimulator({ variant: 'B' });

  // Spec document 2, POST /erpOrder: "In variant B the body schema marks every field required."
  it('refuses a minimal POST, naming each missing field', async () => {
    const patients = await list(sim(), `/patient`);
    const answer = await api(sim(), 'POST', '/erpOrder', {
      body: {
        salesId: 'VK-MIN-1',
        patientId: patients[0]?._id,
        outboundDate: '2026-03-01T10:00:00.000Z',
        deliveryAddress: { name: 'Home' },
        erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 1 }],
      },
    });
    expect(answer.status).toBe(400);
    const problems = problemsOf(answer.json);
    for (const field of ['annotation', 'prescriptionStatus', 'trackingLink', 'therapyId']) {
      expect(problems).toContain(`${field} is required`);
    }
    expect(problems).toContain('completed is required');
    expect(problems).toContain('trackingInfo is required');
  });
});

describe('articles in variant C', () => {
  const sim = useSimulator({ variant: 'C' });

  // Spec document 2, PUT /article: "variant C: path parameter `customerNumber`".
  it('keeps the path customerNumber on a PUT whose body leaves it out, refuses another one', async () => {
    const [article] = await list(sim(), `/article?updatedAfter=${EPOCH}`);
    const customerNumber = String(article?.customerNumber);
    const units = [{ quantity: 1, unit: 'Stück', pcn: '01234567' }];
    const kept = await api(sim(), 'PUT', `/article/${customerNumber}`, {
      body: { name: 'Kompresse', packagingUnits: units },
    });
    expect(kept.status).toBe(200);
    expect(kept.json).toMatchObject({ customerNumber, name: 'Kompresse' });
    const renamed = await api(sim(), 'PUT', `/article/${customerNumber}`, {
      body: { name: 'Kompresse', customerNumber: 'A-RENAMED', packagingUnits: units },
    });
    expect(renamed.status).toBe(400);
    expect(problemsOf(renamed.json)).toContain('customerNumber');
    const stored = await sim().control.getRecord('article', String(article?._id));
    expect(stored.customerNumber).toBe(customerNumber);
  });
});

describe('product groups (variant B)', () => {
  const sim = useSimulator({ variant: 'B' });

  // Spec document 2, PATCH /productGroup/{id}: "body `{name}` (required); only the name may change."
  it('refuses a PATCH that tries to change type or description', async () => {
    const [group] = await list(sim(), '/productGroup');
    const id = String(group?._id);
    const answer = await api(sim(), 'PATCH', `/productGroup/${id}`, {
      body: { name: 'Neu', type: 2, description: 'anders' },
    });
    expect(answer.status).toBe(400);
    expect(problemsOf(answer.json)).toContain('type cannot be changed here');
    expect(problemsOf(answer.json)).toContain('description cannot be changed here');
    expect(await sim().control.getRecord('productGroup', id)).toMatchObject({
      name: group?.name,
      type: group?.type,
    });
    const renamed = await api(sim(), 'PATCH', `/productGroup/${id}`, { body: { name: 'Neu' } });
    expect(renamed.status).toBe(200);
  });
});

describe('master-data lists in variant A', () => {
  const sim = useSimulator({ variant: 'A' });

  // Spec document 2, Master data: "query `_id` (UUID) or `updatedAfter` (date-time). Variant B
  // demands exactly one of the two and forbids both together; variant C demands at least one."
  // Postal codes: "list takes `_id`, `updatedAfter` or `postalCode` (variant B: exactly one)".
  // Variant A demands neither.
  it('answers a list without _id or updatedAfter, and still filters by either', async () => {
    for (const resource of ['doctor', 'payer', 'hospital', 'nursingHome', 'nursingService']) {
      expect(await list(sim(), `/${resource}`), resource).not.toHaveLength(0);
    }
    const pharmacies = await list(sim(), '/pharmacy');
    const [first] = pharmacies;
    expect(await list(sim(), `/pharmacy?_id=${String(first?._id)}`)).toEqual([first]);
    expect(await list(sim(), `/pharmacy?updatedAfter=2999-01-01T00:00:00Z`)).toEqual([]);
    expect(await list(sim(), '/postalCode')).not.toHaveLength(0);
  });
});

/** A UUID v4 a client might send, so only the reading, not the value's shape, decides. */
const SUPPLIED_ID = '0b8f3f0e-3c1a-4d7e-9a55-2b7f6f3c9d10';

async function createdId(sim: TestSimulator, path: string, body: Row): Promise<string> {
  const answer = await api(sim, 'POST', path, { body: { _id: SUPPLIED_ID, ...body } });
  expect(answer.status, `${path}: ${answer.text}`).toBe(201);
  return String((answer.json as Row)._id);
}

describe('_id on create', () => {
  const simA = useSimulator({ variant: 'A' });
  const simB = useSimulator({ variant: 'B' });

  // Spec document 2, Shared conventions: "`_id` is a UUID v4 string generated at creation";
  // document 1, Errors: a supplied `_id` is "not allowed" only on "Product group creation" and
  // "Device creation". Elsewhere it is taken, and the platform generates the record's own.
  it('takes a create that carries _id and gives the record an _id of its own', async () => {
    const patientId = await createdId(simA(), '/patient', { lastName: 'Id', customerId: 'K-ID' });
    const creates: Array<[string, Row]> = [
      ['patientNote', { patientId, noteText: 'Anruf' }],
      ['integratedCare', { patientId, therapyId: 3, isInitialCare: true }],
      [
        'erpOrder',
        {
          salesId: 'VK-ID-1',
          patientId,
          outboundDate: '2026-03-01T10:00:00Z',
          deliveryAddress: { name: 'Home' },
          erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 1 }],
        },
      ],
      ['article', { name: 'Kompresse', articleNumber: 'AN-ID-1' }],
      ['contractArticleGroup', { name: 'Gruppe' }],
      ['insuranceContract', { name: 'Vertrag' }],
    ];
    const ids = [patientId];
    for (const [resource, body] of creates) ids.push(await createdId(simA(), `/${resource}`, body));
    const packagingUnits = [{ quantity: 10, unit: 'Stk' }];
    const articleB = { name: 'Kompresse', customerNumber: 'ID-B-1', packagingUnits };
    ids.push(await createdId(simB(), '/article', articleB));
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-/);
    expect(ids).not.toContain(SUPPLIED_ID);
    await expect(simA().control.getRecord('patient', SUPPLIED_ID)).rejects.toThrow(/404/);
    expect(await simA().control.getRecord('patient', patientId)).toMatchObject({ lastName: 'Id' });
  });

  it('refuses _id on creating a device or a product group', async () => {
    const [patient] = await list(simA(), '/patient');
    const device = { patientId: patient?._id, serialNumber: 'SN-ID', description: 'Pumpe' };
    const group = { name: 'Gruppe', type: 0 };
    for (const [sim, path, body] of [
      [simA(), '/device', device],
      [simB(), '/productGroup', group],
    ] as const) {
      const answer = await api(sim, 'POST', path, { body: { _id: SUPPLIED_ID, ...body } });
      expect(answer.status, path).toBe(400);
      expect(problemsOf(answer.json), path).toContain('_id must not be supplied');
    }
  });
});

describe('query parameters the text does not name', () => {
  const sim = useSimulator({ variant: 'B' });
  const since = `updatedAfter=${EPOCH}`;

  // Spec document 1, Errors: "Additional query parameters on GET /directOrder and GET
  // /integratedCare beyond status and updatedAfter: not allowed", and "Query parameters on POST
  // /article, POST /device, PATCH /singleOrder, PATCH /directOrder ...: not allowed". Elsewhere
  // the text is silent, and an unknown parameter is taken (and ignored).
  it('ignores them where the text is silent and refuses them where it forbids them', async () => {
    const [patient] = await list(sim(), '/patient?extra=1');
    expect((await api(sim(), 'GET', `/patient/${String(patient?._id)}?extra=1`)).status).toBe(200);
    expect(await list(sim(), `/singleOrder?status=created&${since}&extra=1`)).not.toHaveLength(0);
    expect(await list(sim(), `/doctor?${since}&extra=1`)).not.toHaveLength(0);
    const note = { patientId: patient?._id, noteText: 'Anruf' };
    expect((await api(sim(), 'POST', '/patientNote?extra=1', { body: note })).status).toBe(201);
    for (const path of [
      `/directOrder?status=created&${since}&extra=1`,
      `/integratedCare?status=created&${since}&extra=1`,
    ]) {
      const answer = await api(sim(), 'GET', path);
      expect(answer.status, path).toBe(400);
      expect(problemsOf(answer.json), path).toBe('query parameter extra is not allowed here');
    }
  });
});

describe('ERP order outboundDate', () => {
  const sim = useSimulator({ variant: 'C' });

  // Spec document 2, ERP order: "`outboundDate` (date-time)", unlike the plain-string dates.
  it('refuses an outboundDate that is not an ISO 8601 date-time', async () => {
    const [patient] = await list(sim(), '/patient');
    const body = {
      salesId: 'VK-DATE-1',
      patientId: patient?._id,
      deliveryAddress: { name: 'Home' },
      erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 1 }],
    };
    for (const outboundDate of ['2026-03-01', '01.03.2026 10:00', '2026-03-01T10:00:00']) {
      const answer = await api(sim(), 'POST', '/erpOrder', { body: { ...body, outboundDate } });
      expect(answer.status, outboundDate).toBe(400);
      expect(problemsOf(answer.json)).toMatch(/^outboundDate: /);
    }
    const taken = await api(sim(), 'POST', '/erpOrder', {
      body: { ...body, outboundDate: '2026-03-01T10:00:00+01:00' },
    });
    expect(taken.status).toBe(201);
  });
});

describe('seriesStatus as the acknowledgement of a care arrangement (variant B)', () => {
  const sim = useSimulator({ variant: 'B' });
  const cares = (status: string) =>
    list(sim(), `/integratedCare?status=${status}&updatedAfter=${EPOCH}`);

  // Spec document 1: SeriesStatus is the "transmission status of a care arrangement", values
  // -3, 0 … 5, names not shown. Our reading (src/contract/readings.ts): 0 not yet transmitted,
  // 1 transmitted, as OrderStatus numbers them; the simulator sorts its lists by the same.
  it('lists seriesStatus 0 under created and moves an arrangement PATCHed to 1 to transmitted', async () => {
    const created = await cares('created');
    expect(created.map((c) => c.seriesStatus)).not.toContain(SERIES_STATUS_TRANSMITTED);
    expect(created.every((c) => c.seriesStatus === SERIES_STATUS_NOT_TRANSMITTED)).toBe(true);
    const [care] = created;
    const id = String(care?._id);
    const ack = await api(sim(), 'PATCH', `/integratedCare/${id}`, {
      body: { seriesStatus: SERIES_STATUS_TRANSMITTED },
    });
    expect(ack.status).toBe(200);
    expect((await cares('created')).map((c) => c._id)).not.toContain(id);
    expect((await cares('transmitted')).find((c) => c._id === id)).toMatchObject({
      seriesStatus: SERIES_STATUS_TRANSMITTED,
    });
  });
});
