import { describe, expect, it } from 'vitest';
import { api, useSimulator, type TestSimulator } from '../../support/simulator.js';

type Row = Record<string, unknown>;

async function since(sim: TestSimulator): Promise<string> {
  const { now } = await sim.control.moveClock({ offsetMs: 60_000 });
  await sim.control.moveClock({ offsetMs: 1000 });
  return now;
}

async function listIds(sim: TestSimulator, path: string, key: string): Promise<unknown[]> {
  const answer = await api(sim, 'GET', path, { key });
  expect(answer.status, `${key} ${path}`).toBe(200);
  return (answer.json as Row[]).map((r) => r._id);
}

describe('authentication', () => {
  const sim = useSimulator({ variant: 'B' });

  it('answers 401 JSON for a missing or unknown service-api-key', async () => {
    for (const key of [null, '', 'not-a-key']) {
      const answer = await api(sim(), 'GET', '/region', { key });
      expect(answer.status).toBe(401);
      expect(answer.json).toMatchObject({ error: 'unauthorized' });
      expect((answer.json as { problems: string[] }).problems.join()).toContain('service-api-key');
    }
  });

  it('logs requests with the client their key names', async () => {
    await sim().control.clearRequests();
    await api(sim(), 'GET', '/region', { key: 'demo-key-2' });
    await api(sim(), 'GET', '/region?x=1', { key: null });
    const log = await sim().control.requests();
    expect(log).toEqual([
      expect.objectContaining({ method: 'GET', path: '/region', client: 'erp-2', status: 200 }),
      expect.objectContaining({ path: '/region', query: { x: '1' }, client: null, status: 401 }),
    ]);
  });
});

describe('tenants', () => {
  const sim = useSimulator({ variant: 'B' });

  it('keeps each tenant to its own records', async () => {
    const after = await since(sim());
    const patient = await sim().control.createRecord('patient', { lastName: 'Demo' });
    const id = String(patient._id);
    expect((await api(sim(), 'GET', `/patient/${id}`)).status).toBe(200);
    expect((await api(sim(), 'GET', `/patient/${id}`, { key: 'other-tenant-key' })).status).toBe(
      404,
    );
    expect(await listIds(sim(), `/patient?updatedAfter=${after}`, 'demo-key')).toEqual([id]);
    expect(await listIds(sim(), `/patient?updatedAfter=${after}`, 'other-tenant-key')).toEqual([]);
  });

  it('seeds the other tenant with its own data', async () => {
    const demo = await listIds(sim(), '/region', 'demo-key');
    const other = await listIds(sim(), '/region', 'other-tenant-key');
    expect(other.length).toBeGreaterThan(0);
    expect(other.filter((id) => demo.includes(id))).toEqual([]);
  });

  it('never shows a user of another tenant', async () => {
    const user = await sim().control.createRecord('users', { name: 'Other' }, { tenant: 'other' });
    const answer = await api(sim(), 'GET', `/users/${String(user._id)}`);
    expect(answer.status).toBe(404);
    const mine = await api(sim(), 'GET', `/users/${String(user._id)}`, { key: 'other-tenant-key' });
    expect(mine.status).toBe(200);
  });
});

describe('loop suppression', () => {
  const sim = useSimulator({ variant: 'B' });
  const article = {
    name: 'Stomabeutel',
    customerNumber: 'LOOP-1',
    packagingUnits: [{ quantity: 10, unit: 'Stk', pcn: '111' }],
  };

  it('leaves a client its own writes out of its pulls; other clients and platform users see them', async () => {
    const after = await since(sim());
    const created = await api(sim(), 'POST', '/article', { body: article });
    expect(created.status).toBe(201);
    const id = (created.json as Row)._id;
    const path = `/article?status=created&updatedAfter=${after}`;
    expect(await listIds(sim(), path, 'demo-key')).toEqual([]);
    expect(await listIds(sim(), path, 'demo-key-2')).toEqual([id]);
    await sim().control.patchRecord('article', String(id), { name: 'changed on the platform' });
    expect(await listIds(sim(), path, 'demo-key')).toEqual([id]);
    const stored = await sim().control.getRecord('article', String(id));
    expect(stored.updatedBy).toBe('platform-user');
  });

  it('takes an order out of status=created once its client PATCHes it, and shows it under its new status', async () => {
    const after = await since(sim());
    const order = await sim().control.createRecord('singleOrder', { status: 0 });
    const id = String(order._id);
    const created = `/singleOrder?status=created&updatedAfter=${after}`;
    expect(await listIds(sim(), created, 'demo-key')).toEqual([id]);
    const patched = await api(sim(), 'PATCH', `/singleOrder/${id}`, { body: { status: 1 } });
    expect(patched.status).toBe(200);
    expect(patched.json).toMatchObject({ _id: id, status: 1, updatedBy: 'erp-1' });
    for (const key of ['demo-key', 'demo-key-2']) {
      expect(await listIds(sim(), created, key)).toEqual([]);
      const transmitted = `/singleOrder?status=transmitted&updatedAfter=${after}`;
      expect(await listIds(sim(), transmitted, key)).toEqual([id]);
    }
  });

  // Spec document 1, rule 3: "After the client PATCHes the status ..., the record no longer
  // appears under status=created" — a status change does it, a salesId alone does not.
  it('keeps an order in status=created when a PATCH only sets the salesId', async () => {
    const after = await since(sim());
    const order = await sim().control.createRecord('directOrder', { status: 0 });
    const id = String(order._id);
    await api(sim(), 'PATCH', `/directOrder/${id}`, { body: { salesId: 'AU-1' } });
    const list = (status: string) =>
      listIds(sim(), `/directOrder?status=${status}&updatedAfter=${after}`, 'demo-key');
    expect(await list('created')).toEqual([id]);
    await api(sim(), 'PATCH', `/directOrder/${id}`, { body: { status: 3 } });
    expect(await list('created')).toEqual([]);
    expect(await list('updated')).toEqual([id]);
  });
});

describe('the simulator clock', () => {
  const sim = useSimulator({ variant: 'C' });

  it('sends a Date header that follows a moved clock, and stamps records with it', async () => {
    const first = await api(sim(), 'GET', '/region');
    const before = Date.parse(first.headers.get('date') ?? '');
    await sim().control.moveClock({ offsetMs: 3_600_000 });
    const second = await api(sim(), 'GET', '/region');
    expect(Date.parse(second.headers.get('date') ?? '') - before).toBe(3_600_000);
    await sim().control.moveClock({ set: '2030-05-01T10:00:00Z' });
    const refused = await api(sim(), 'GET', '/nope', { key: 'bad' });
    expect(refused.headers.get('date')).toBe('Wed, 01 May 2030 10:00:00 GMT');
    const note = await sim().control.createRecord('patientNote', { noteText: 'x' });
    expect(note.timestamp).toBe('2030-05-01T10:00:00.000Z');
  });
});
