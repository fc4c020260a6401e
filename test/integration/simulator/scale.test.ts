import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { api, useSimulator } from '../../support/simulator.js';

type Row = Record<string, unknown>;
const headers = { 'service-api-key': 'demo-key' };

describe('a large simulator', () => {
  const sim = useSimulator({ variant: 'B', sizes: { articles: 30_000, patients: 10_000 } });
  const path = '/article?status=created&updatedAfter=2000-01-01T00:00:00Z';

  it('streams a long list in many chunks and serves writes while it streams', async () => {
    const answer = await request(`${sim().url}${path}`, { headers });
    const chunks: Buffer[] = [];
    let wrote = false;
    for await (const chunk of answer.body) {
      chunks.push(chunk as Buffer);
      if (!wrote) {
        wrote = true;
        // A write between two chunks of the list: the list must not hold the database.
        const created = await api(sim(), 'POST', '/article', {
          body: { name: 'mid', customerNumber: 'MID-1', packagingUnits: [{ quantity: 1 }] },
        });
        expect(created.status).toBe(201);
      }
    }
    expect(chunks.length).toBeGreaterThan(10);
    const articles = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Row[];
    expect(articles.length).toBeGreaterThan(25_000);
    expect(articles.map((a) => a.customerNumber)).not.toContain('MID-1');
    const stamps = articles.map((a) => `${String(a.timestamp)} ${String(a._id)}`);
    expect(stamps).toEqual([...stamps].sort());
  });

  it('finds articles by customerNumber and patients by id among many', async () => {
    const list = (await api(sim(), 'GET', path)).json as Row[];
    const last = list.at(-1);
    const byNumber = await api(sim(), 'GET', `/article/${String(last?.customerNumber)}`);
    expect(byNumber.json).toMatchObject({ _id: last?._id });
    const patients = (await api(sim(), 'GET', '/patient')).json as Row[];
    expect(patients.length).toBeGreaterThan(5_000);
    const patient = patients.at(-1);
    const byId = await api(sim(), 'GET', `/patient/${String(patient?._id)}`);
    expect(byId.json).toEqual(patient);
  });
});
