import { describe, expect, it } from 'vitest';
import { api, useSimulator } from '../../support/simulator.js';

describe('the control API', () => {
  const sim = useSimulator({ variant: 'B', controlToken: 'secret-token' });

  it('refuses a missing or wrong sim-control-token with 401', async () => {
    for (const token of [undefined, 'demo-control']) {
      const response = await fetch(`${sim().url}/__sim/requests`, {
        headers: token === undefined ? {} : { 'sim-control-token': token },
      });
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: 'unauthorized' });
    }
  });

  it('reads stored records as they are, archived ones included', async () => {
    const record = await sim().control.createRecord('article', { name: 'x', archived: true });
    const stored = await sim().control.getRecord('article', String(record._id));
    expect(stored).toMatchObject({ name: 'x', archived: true, createdBy: 'platform-user' });
    expect((await api(sim(), 'GET', `/article/${String(record._id)}`)).status).toBe(200);
  });

  it('refuses an unknown resource and a malformed body', async () => {
    await expect(sim().control.createRecord('spaceship', {})).rejects.toThrow(/404/);
    await expect(sim().control.moveClock({ set: 'tomorrow' })).rejects.toThrow(/400/);
  });

  it('reset drops every change, fault and logged request and seeds the same data again', async () => {
    const path = '/article?status=created&updatedAfter=2000-01-01T00:00:00Z';
    const seeded = (await api(sim(), 'GET', path, { key: 'demo-key-2' })).text;
    const created = await api(sim(), 'POST', '/article', {
      body: { name: 'n', customerNumber: 'RESET-1', packagingUnits: [{ quantity: 1 }] },
    });
    expect(created.status).toBe(201);
    await sim().control.setFault({ path: '/patient', errorRate: 1 });
    await sim().control.reset();
    expect((await api(sim(), 'GET', '/article/RESET-1')).status).toBe(404);
    expect((await api(sim(), 'GET', '/patient')).status).toBe(200);
    expect((await api(sim(), 'GET', path, { key: 'demo-key-2' })).text).toBe(seeded);
    const log = await sim().control.requests();
    expect(log.map((e) => e.path)).toEqual(['/article/RESET-1', '/patient', '/article']);
  });
});
