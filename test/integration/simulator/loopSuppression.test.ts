import { describe, expect, it } from 'vitest';
import { api, useSimulator, type TestSimulator } from '../../support/simulator.js';

type Row = Record<string, unknown>;

async function since(sim: TestSimulator): Promise<string> {
  const { now } = await sim.control.moveClock({ offsetMs: 60_000 });
  await sim.control.moveClock({ offsetMs: 1000 });
  return now;
}

async function listIds(sim: TestSimulator, path: string, key = 'demo-key'): Promise<unknown[]> {
  const answer = await api(sim, 'GET', path, { key });
  expect(answer.status, `${key} ${path}`).toBe(200);
  return (answer.json as Row[]).map((r) => r._id);
}

async function ownPatient(sim: TestSimulator, customerId: string): Promise<string> {
  const created = await api(sim, 'POST', '/patient', { body: { lastName: 'Loop', customerId } });
  expect(created.status).toBe(201);
  return String((created.json as Row)._id);
}

// Spec document 1, rule 2: "Changes made through the API with a given API key are recognised by
// that key and are left out of the next synchronisation result for that client."
describe('loop suppression next (the default)', () => {
  const sim = useSimulator({ variant: 'B' });

  it("leaves a client's own change out of its next list only; the one after returns it", async () => {
    const after = await since(sim());
    const id = await ownPatient(sim(), 'K-NEXT-1');
    const path = `/patient?updatedAfter=${after}`;
    expect(await listIds(sim(), path)).toEqual([]);
    expect(await listIds(sim(), path)).toEqual([id]);
    expect(await listIds(sim(), path, 'demo-key-2')).toEqual([id]);
  });

  it('leaves it out of the next list that would return it, not of lists that would not', async () => {
    const after = await since(sim());
    const id = await ownPatient(sim(), 'K-NEXT-2');
    const later = await since(sim());
    expect(await listIds(sim(), `/patient?updatedAfter=${later}`)).toEqual([]);
    expect(await listIds(sim(), `/patient?updatedAfter=${after}`)).toEqual([]);
    expect(await listIds(sim(), `/patient?updatedAfter=${after}`)).toEqual([id]);
  });
});

describe('loop suppression until-changed', () => {
  const sim = useSimulator({ variant: 'B', loopSuppression: 'until-changed' });

  it("leaves a client's own change out of all its lists until someone else changes it", async () => {
    const after = await since(sim());
    const id = await ownPatient(sim(), 'K-UNTIL-1');
    const path = `/patient?updatedAfter=${after}`;
    expect(await listIds(sim(), path)).toEqual([]);
    expect(await listIds(sim(), path)).toEqual([]);
    expect(await listIds(sim(), path, 'demo-key-2')).toEqual([id]);
    await sim().control.patchRecord('patient', id, { phone: '0221 12345' });
    expect(await listIds(sim(), path)).toEqual([id]);
  });
});
