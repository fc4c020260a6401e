import { describe, expect, it } from 'vitest';
import {
  api,
  startTestSimulator,
  useSimulator,
  type TestSimulator,
} from '../../support/simulator.js';

type Row = Record<string, unknown>;

/**
 * Moves the simulator's clock a minute on, past every seeded time, and returns that moment as
 * an `updatedAfter`; records made after this call are a second later.
 */
async function pastTheSeed(sim: TestSimulator): Promise<string> {
  const { now } = await sim.control.moveClock({ offsetMs: 60_000 });
  await sim.control.moveClock({ offsetMs: 1000 });
  return now;
}

async function ids(sim: TestSimulator, path: string, key = 'demo-key'): Promise<string[]> {
  const answer = await api(sim, 'GET', path, { key });
  expect(answer.status, path).toBe(200);
  return (answer.json as Row[]).map((r) => String(r._id));
}

describe('status filters of orders and care arrangements', () => {
  const sim = useSimulator({ variant: 'B' });

  it('sorts single orders into created, transmitted, updated and archived', async () => {
    const since = await pastTheSeed(sim());
    const make = (status: number, archived = false) =>
      sim()
        .control.createRecord('singleOrder', { status, archived })
        .then((r) => String(r._id));
    const created = await make(0);
    const transmitted = [await make(1), await make(2), await make(6)];
    const updated = [await make(3), await make(-2)];
    const archived = await make(0, true);
    const list = (status: string) =>
      ids(sim(), `/singleOrder?status=${status}&updatedAfter=${since}`);
    expect(await list('created')).toEqual([created]);
    expect((await list('transmitted')).sort()).toEqual([...transmitted].sort());
    expect((await list('updated')).sort()).toEqual([...updated].sort());
    expect(await list('archived')).toEqual([archived]);
  });

  it('sorts care arrangements into created, transmitted, deactivated and archived', async () => {
    const since = await pastTheSeed(sim());
    const make = (fields: Row) =>
      sim()
        .control.createRecord('integratedCare', fields)
        .then((r) => String(r._id));
    const created = await make({ status: 1, seriesStatus: 0 });
    const transmitted = await make({ status: 1, seriesStatus: 2 });
    const deactivated = await make({ status: 2, seriesStatus: 0 });
    const archived = await make({ status: 1, seriesStatus: 0, archived: true });
    const list = (status: string) =>
      ids(sim(), `/integratedCare?status=${status}&updatedAfter=${since}`);
    expect(await list('created')).toEqual([created]);
    expect(await list('transmitted')).toEqual([transmitted]);
    expect(await list('deactivated')).toEqual([deactivated]);
    expect(await list('archived')).toEqual([archived]);
  });

  it('tells new articles from changed ones by createdAt (variant B)', async () => {
    const before = await sim().control.createRecord('article', {
      name: 'old',
      customerNumber: 'OLD-1',
    });
    const since = await pastTheSeed(sim());
    const fresh = await sim().control.createRecord('article', {
      name: 'new',
      customerNumber: 'NEW-1',
    });
    await sim().control.patchRecord('article', String(before._id), { name: 'old, changed' });
    const gone = await sim().control.createRecord('article', { name: 'x', archived: true });
    const list = (status: string) => ids(sim(), `/article?status=${status}&updatedAfter=${since}`);
    expect(await list('created')).toEqual([fresh._id]);
    expect(await list('updated')).toEqual([before._id]);
    expect(await list('archived')).toEqual([gone._id]);
  });
});

describe('list order, updatedAfter and parameters', () => {
  const sim = useSimulator({ variant: 'B' });

  it('returns records changed strictly after updatedAfter, by timestamp then _id', async () => {
    const { now: since } = await sim().control.moveClock({ offsetMs: 60_000 });
    const atSince = await sim().control.createRecord('patient', { lastName: 'A' });
    await sim().control.moveClock({ offsetMs: 1000 });
    const later = [
      await sim().control.createRecord('patient', {
        lastName: 'B',
        _id: 'ffffffff-0000-4000-8000-000000000001',
      }),
      await sim().control.createRecord('patient', {
        lastName: 'C',
        _id: '00000000-0000-4000-8000-000000000002',
      }),
    ];
    await sim().control.moveClock({ offsetMs: 1000 });
    const latest = await sim().control.createRecord('patient', { lastName: 'D' });
    expect(atSince.timestamp).toBe(since);
    const listed = await ids(sim(), `/patient?updatedAfter=${since}`);
    expect(listed).toEqual([later[1]?._id, later[0]?._id, latest._id]);
  });

  it('filters patient notes by patientId', async () => {
    const patient = await sim().control.createRecord('patient', { lastName: 'Notes' });
    const note = await sim().control.createRecord('patientNote', {
      patientId: patient._id,
      noteText: 'x',
    });
    expect(await ids(sim(), `/patientNote?patientId=${String(patient._id)}`)).toEqual([note._id]);
  });

  it('refuses lists that break the query rules, naming the parameter', async () => {
    const cases: Array<[string, string]> = [
      ['/singleOrder?updatedAfter=2026-01-01T00:00:00Z', 'status'],
      ['/singleOrder?status=new&updatedAfter=2026-01-01T00:00:00Z', 'status'],
      ['/singleOrder?status=created&updatedAfter=yesterday', 'updatedAfter'],
      ['/directOrder?status=created&updatedAfter=2026-01-01T00:00:00Z&patientId=x', 'patientId'],
      ['/integratedCare?status=created&updatedAfter=2026-01-01T00:00:00Z&limit=5', 'limit'],
      ['/doctor?_id=6f1c2f7e-8a43-4b59-9a38-4b1b9e0c1d11&updatedAfter=2026-01-01T00:00:00Z', '_id'],
      ['/doctor', 'updatedAfter'],
      ['/article?updatedAfter=2026-01-01T00:00:00Z', 'status'],
    ];
    for (const [path, parameter] of cases) {
      const answer = await api(sim(), 'GET', path);
      expect(answer.status, path).toBe(400);
      const body = answer.json as { error: string; problems: string[] };
      expect(body.error).toBe('bad_request');
      expect(body.problems.join(' '), path).toContain(parameter);
    }
  });

  it('refuses query parameters on POST /article', async () => {
    const answer = await api(sim(), 'POST', '/article?dryRun=true', {
      body: { name: 'n', customerNumber: 'Q-1', packagingUnits: [{ quantity: 1, unit: 'Stk' }] },
    });
    expect(answer.status).toBe(400);
    expect((answer.json as { problems: string[] }).problems.join()).toContain('dryRun');
  });
});

describe('variant C lists', () => {
  const sim = useSimulator({ variant: 'C' });

  it('lists users as active or archived, without sensitive fields', async () => {
    const since = await pastTheSeed(sim());
    const active = await sim().control.createRecord('users', {
      name: 'Schwester A',
      passwordHash: 'secret',
      roles: ['admin'],
    });
    const archived = await sim().control.createRecord('users', { name: 'B', archived: true });
    const answer = await api(sim(), 'GET', `/users?status=active&updatedAfter=${since}`);
    expect((answer.json as Row[]).map((u) => u._id)).toEqual([active._id]);
    expect(answer.json).toEqual([expect.not.objectContaining({ passwordHash: 'secret' })]);
    expect(Object.keys((answer.json as Row[])[0] ?? {})).not.toContain('roles');
    expect(await ids(sim(), `/users?status=archived&updatedAfter=${since}`)).toEqual([
      archived._id,
    ]);
    const single = await api(sim(), 'GET', `/users/${String(active._id)}`);
    expect(single.json).not.toHaveProperty('passwordHash');
  });
});

describe('a seeded simulator', () => {
  it('serves the same data for the same seed and other data for another', async () => {
    const bodies = async (seed: number): Promise<string[]> => {
      const sim = await startTestSimulator({ variant: 'A', seed });
      try {
        const paths = ['/article?updatedAfter=2000-01-01T00:00:00Z', '/patient', '/region'];
        return await Promise.all(paths.map(async (p) => (await api(sim, 'GET', p)).text));
      } finally {
        await sim.close();
      }
    };
    const first = await bodies(7);
    expect(JSON.parse(first[0] ?? '[]')).not.toHaveLength(0);
    expect(await bodies(7)).toEqual(first);
    expect((await bodies(8))[0]).not.toEqual(first[0]);
  });
});
