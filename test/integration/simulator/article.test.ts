import { describe, expect, it } from 'vitest';
import { api, useSimulator } from '../../support/simulator.js';

type Row = Record<string, unknown>;
const units = [
  { quantity: 10, unit: 'Stk', pcn: '100' },
  { quantity: 30, unit: 'Stk', pcn: '300' },
];

describe('article writes (variant B)', () => {
  const sim = useSimulator({ variant: 'B' });
  const post = (body: Row) => api(sim(), 'POST', '/article', { body });

  it('creates with generated unit ids, therapyIds [] and prescriptionType 6 stored as 0', async () => {
    const answer = await post({
      name: 'Beutel',
      customerNumber: 'ART-1',
      packagingUnits: units,
      prescriptionType: 6,
    });
    expect(answer.status).toBe(201);
    const article = answer.json as Row;
    expect(article).toMatchObject({ therapyIds: [], prescriptionType: 0, createdBy: 'erp-1' });
    const ids = (article.packagingUnits as Row[]).map((u) => u._id);
    expect(ids).toHaveLength(units.length);
    expect(ids.every((id) => typeof id === 'string' && id.length === 36)).toBe(true);
    expect(String(article._id)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a duplicate customerNumber with the existing ids', async () => {
    const first = (await post({ name: 'a', customerNumber: 'DUP-1', packagingUnits: units }))
      .json as Row;
    const second = await post({ name: 'b', customerNumber: 'DUP-1', packagingUnits: units });
    expect(second.status).toBe(409);
    expect(second.json).toMatchObject({ error: 'conflict', existingIds: [first._id] });
    expect((second.json as { problems: string[] }).problems[0]).toMatch(/^customerNumber: /);
  });

  it('refuses bodies that break the rules, naming the field', async () => {
    const cases: Array<[Row, string]> = [
      [{ customerNumber: 'R-1', packagingUnits: units }, 'name'],
      [{ name: 'x', packagingUnits: units }, 'customerNumber'],
      [{ name: 'x', customerNumber: 'R-2', packagingUnits: [] }, 'packagingUnits'],
      [
        { name: 'x', customerNumber: 'R-4', packagingUnits: units, therapyIds: 'all' },
        'therapyIds',
      ],
    ];
    for (const [body, field] of cases) {
      const answer = await post(body);
      expect(answer.status, field).toBe(400);
      expect((answer.json as { problems: string[] }).problems.join(' | '), field).toContain(field);
    }
  });

  it('merges packaging units on PUT: matches keep their id, absent ones are archived, new ones get one', async () => {
    const created = (
      await post({ name: 'a', customerNumber: 'PU-1', packagingUnits: units, therapyIds: [3, 4] })
    ).json as Row;
    const [ten, thirty] = created.packagingUnits as Row[];
    const answer = await api(sim(), 'PUT', '/article/PU-1', {
      body: {
        name: 'a2',
        customerNumber: 'PU-1',
        packagingUnits: [
          { quantity: 10, unit: 'Stk', pcn: '100' },
          { quantity: 60, unit: 'Stk', pcn: '600' },
        ],
      },
    });
    expect(answer.status).toBe(200);
    const article = answer.json as Row;
    const after = article.packagingUnits as Row[];
    expect(after).toHaveLength(3);
    expect(after.find((u) => u.quantity === 10)).toMatchObject({ _id: ten?._id, archived: false });
    expect(after.find((u) => u.quantity === 30)).toMatchObject({
      _id: thirty?._id,
      archived: true,
    });
    const sixty = after.find((u) => u.quantity === 60);
    expect(sixty?._id).toEqual(expect.any(String));
    expect([ten?._id, thirty?._id]).not.toContain(sixty?._id);
    expect(article).toMatchObject({ _id: created._id, name: 'a2', therapyIds: [3, 4] });
  });

  it('finds an article by _id or customerNumber and answers 404 for neither', async () => {
    const created = (await post({ name: 'g', customerNumber: 'GET-1', packagingUnits: units }))
      .json as Row;
    expect((await api(sim(), 'GET', `/article/${String(created._id)}`)).json).toMatchObject({
      customerNumber: 'GET-1',
    });
    expect((await api(sim(), 'GET', '/article/GET-1')).json).toMatchObject({ _id: created._id });
    expect((await api(sim(), 'GET', '/article/NONE-1')).status).toBe(404);
    const byId = await api(sim(), 'PUT', `/article/${String(created._id)}`, {
      body: { name: 'g2', customerNumber: 'GET-1', packagingUnits: units },
    });
    expect(byId.json).toMatchObject({ _id: created._id, name: 'g2' });
  });
});

describe('article writes (variants A and C)', () => {
  const simA = useSimulator({ variant: 'A' });
  const simC = useSimulator({ variant: 'C' });

  it('PATCH /article (A) keeps therapyIds when omitted and stores prescriptionType 6 as 0', async () => {
    const created = (
      await api(simA(), 'POST', '/article', {
        body: { name: 'a', articleNumber: 'N-1', therapyIds: [7] },
      })
    ).json as Row;
    const answer = await api(simA(), 'PATCH', `/article/${String(created._id)}`, {
      body: { prescriptionType: 6, stars: 3 },
    });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({
      name: 'a',
      therapyIds: [7],
      prescriptionType: 0,
      stars: 3,
    });
  });

  it('PUT /article/{_id} (A) finds the article by _id only', async () => {
    const created = (
      await api(simA(), 'POST', '/article', {
        body: { name: 'a', articleNumber: 'N-2', customerNumber: 'CN-2' },
      })
    ).json as Row;
    const byId = await api(simA(), 'PUT', `/article/${String(created._id)}`, {
      body: { name: 'a2', customerNumber: 'CN-2' },
    });
    expect(byId.json).toMatchObject({ _id: created._id, name: 'a2' });
    const byNumber = await api(simA(), 'PUT', '/article/CN-2', { body: { name: 'a3' } });
    expect(byNumber.status).toBe(404);
  });

  it('POST /article (A) requires articleNumber', async () => {
    const answer = await api(simA(), 'POST', '/article', { body: { name: 'a' } });
    expect(answer.status).toBe(400);
    expect((answer.json as { problems: string[] }).problems).toContain('articleNumber is required');
  });

  it('PUT /article/{customerNumber} (C) takes no query parameters', async () => {
    const body = { name: 'c', customerNumber: 'C-1', packagingUnits: units };
    expect((await api(simC(), 'POST', '/article', { body })).status).toBe(201);
    expect(
      (await api(simC(), 'PUT', '/article/C-1', { body: { ...body, name: 'c2' } })).json,
    ).toMatchObject({
      name: 'c2',
    });
    expect((await api(simC(), 'PUT', '/article/C-1?x=1', { body })).status).toBe(400);
  });
});
