import { describe, expect, it } from 'vitest';
import { api, useSimulator, type TestSimulator } from '../support/simulator.js';

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
