import { describe, expect, it } from 'vitest';
import { ORDER_STATUS as S } from '../../../src/contract/index.js';
import { api, useSimulator } from '../../support/simulator.js';

describe('order PATCH and the transition table', () => {
  const sim = useSimulator({ variant: 'A' });

  const cases: Array<[number, number, boolean]> = [
    [S.Created, S.Transmitted, true],
    [S.Created, S.Deleted, true],
    [S.Created, S.Pending, true],
    [S.Transmitted, S.Processed, true],
    [S.Pending, S.Canceled, true],
    [S.Canceled, S.Transmitted, true],
    [S.Transmitted, S.Created, false],
    [S.Transmitted, S.Deleted, false],
    [S.Transmitted, S.Pending, false],
    [S.Pending, S.Pending, false],
    [S.Canceled, S.Canceled, false],
    [S.Deleted, S.Transmitted, false],
    [S.Created, 11, false],
  ];

  it.each(['singleOrder', 'directOrder'])('%s follows the table', async (resource) => {
    for (const [from, to, allowed] of cases) {
      const order = await sim().control.createRecord(resource, { status: from });
      const id = String(order._id);
      const answer = await api(sim(), 'PATCH', `/${resource}/${id}`, { body: { status: to } });
      const stored = await sim().control.getRecord(resource, id);
      if (allowed) {
        expect(answer.status, `${from} → ${to}`).toBe(200);
        expect(stored.status).toBe(to);
      } else {
        expect(answer.status, `${from} → ${to}`).toBe(400);
        const body = answer.json as { problems: string[] };
        expect(body.problems[0], `${from} → ${to}`).toMatch(/^status: /);
        expect(stored.status).toBe(from);
      }
    }
  });

  it('names the broken rule', async () => {
    const order = await sim().control.createRecord('singleOrder', { status: S.Deleted });
    const answer = await api(sim(), 'PATCH', `/singleOrder/${String(order._id)}`, {
      body: { status: S.Transmitted },
    });
    expect((answer.json as { problems: string[] }).problems).toEqual([
      'status: Deleted → Transmitted is not allowed; Deleted is an end status; no further change is possible',
    ]);
  });

  it('merges other fields, keeps the id and stamps the change', async () => {
    await sim().control.moveClock({ set: '2026-04-01T12:00:00Z' });
    const order = await sim().control.createRecord('singleOrder', { status: 1, annotation: 'a' });
    await sim().control.moveClock({ offsetMs: 5000 });
    const answer = await api(sim(), 'PATCH', `/singleOrder/${String(order._id)}`, {
      body: { salesId: 'AU-77', erpOrderNumber: 'E-1' },
    });
    expect(answer.json).toMatchObject({
      _id: order._id,
      status: 1,
      annotation: 'a',
      salesId: 'AU-77',
      erpOrderNumber: 'E-1',
      createdAt: '2026-04-01T12:00:00.000Z',
      timestamp: '2026-04-01T12:00:05.000Z',
      updatedAt: '2026-04-01T12:00:05.000Z',
      updatedBy: 'erp-1',
    });
  });

  it('refuses query parameters and answers 404 for an unknown order', async () => {
    const order = await sim().control.createRecord('directOrder', { status: 0 });
    const withQuery = await api(sim(), 'PATCH', `/directOrder/${String(order._id)}?force=1`, {
      body: { status: 1 },
    });
    expect(withQuery.status).toBe(400);
    const unknown = await api(sim(), 'PATCH', '/directOrder/8a1f0e35-0000-4000-8000-000000000000', {
      body: { status: 1 },
    });
    expect(unknown.status).toBe(404);
  });
});
