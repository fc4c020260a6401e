import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import type { Fault } from '../../../src/simulator/index.js';
import { eventually } from '../../support/eventually.js';
import {
  answeringUntil,
  api,
  heldAnswer,
  startTestSimulator,
  useSimulator,
  type TestSimulator,
} from '../../support/simulator.js';

const headers = { 'service-api-key': 'demo-key' };
const EPOCH = '1970-01-01T00:00:00.000Z';

describe('fault injection', () => {
  const sim = useSimulator({ variant: 'B' });

  it('answers errorStatus for `times` requests under the path, then recovers', async () => {
    await sim().control.clearFaults();
    await sim().control.setFault({ path: '/region', errorRate: 1, errorStatus: 500, times: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await api(sim(), 'GET', '/region')).status);
    expect(statuses).toEqual([500, 500, 200]);
    expect((await api(sim(), 'GET', '/payer?updatedAfter=2000-01-01T00:00:00Z')).status).toBe(200);
  });

  it('defaults errorStatus to 503 and sends Retry-After when asked', async () => {
    await sim().control.clearFaults();
    await sim().control.setFault({ path: '/region', errorRate: 1, retryAfter: '7', times: 1 });
    const answer = await api(sim(), 'GET', '/region');
    expect(answer.status).toBe(503);
    expect(answer.headers.get('retry-after')).toBe('7');
    expect(answer.json).toMatchObject({ error: 'injected_fault' });
  });

  it('affects only the method it names', async () => {
    await sim().control.clearFaults();
    await sim().control.setFault({ path: '/article', method: 'post', errorRate: 1 });
    expect((await api(sim(), 'GET', '/article/none')).status).toBe(404);
    expect((await api(sim(), 'POST', '/article', { body: {} })).status).toBe(503);
    await sim().control.clearFaults();
  });

  it('delays the answer by latencyMs of its clock', async () => {
    await sim().control.setFault({ path: '/region', latencyMs: 300, times: 1 });
    const answer = await heldAnswer(sim(), 300, () => api(sim(), 'GET', '/region'));
    expect(answer.status).toBe(200);
  });

  it('resets the connection', async () => {
    await sim().control.clearRequests();
    await sim().control.setFault({ path: '/region', reset: true, times: 1 });
    await expect(fetch(`${sim().url}/region`, { headers })).rejects.toThrow();
    expect((await api(sim(), 'GET', '/region')).status).toBe(200);
    const log = await sim().control.requests();
    expect(log.map((e) => e.status)).toEqual([0, 200]);
  });

  it('truncates the body: half of it arrives, then the connection closes', async () => {
    const whole = (await api(sim(), 'GET', '/region')).text;
    await sim().control.setFault({ path: '/region', truncate: true, times: 1 });
    const answer = await request(`${sim().url}/region`, { headers });
    expect(answer.statusCode).toBe(200);
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(whole));
    await expect(answer.body.text()).rejects.toThrow();
  });

  it('sends malformed JSON', async () => {
    await sim().control.setFault({ path: '/region', malformed: true, times: 1 });
    const answer = await api(sim(), 'GET', '/region');
    expect(answer.status).toBe(200);
    expect(answer.text.startsWith('[')).toBe(true);
    expect(() => JSON.parse(answer.text) as unknown).toThrow();
  });

  it('trickles the body over slowBodyMs of its clock, in ten pieces, and still sends all of it', async () => {
    const whole = (await api(sim(), 'GET', '/region')).text;
    await sim().control.setFault({ path: '/region', slowBodyMs: 400, times: 1 });
    const answer = await answeringUntil(sim(), 40, api(sim(), 'GET', '/region'));
    expect(answer.steps).toBe(9);
    expect(answer.value.text).toBe(whole);
  });

  it('cuts the answers it holds when it closes, without waiting for its clock', async () => {
    const closing = await startTestSimulator({ variant: 'B' });
    await closing.control.setFault({ path: '/region', latencyMs: 3_600_000 });
    await closing.control.setFault({ path: '/payer', slowBodyMs: 3_600_000 });
    const cut = Promise.all([
      expect(api(closing, 'GET', '/region')).rejects.toThrow(),
      expect(api(closing, 'GET', '/payer?updatedAfter=2000-01-01T00:00:00Z')).rejects.toThrow(),
    ]);
    await eventually('both answers held', () => closing.fakeClock().sleeping() === 2);
    await closing.close();
    await cut;
  });

  it('lists and clears faults', async () => {
    await sim().control.clearFaults();
    const fault = await sim().control.setFault({ path: '/patient', latencyMs: 1 });
    const listed = await fetch(`${sim().url}/__sim/faults`, {
      headers: { 'sim-control-token': sim().controlToken },
    }).then((r) => r.json());
    expect(listed).toEqual([expect.objectContaining({ id: fault.id, path: '/patient' })]);
    await sim().control.clearFaults();
    const after = await fetch(`${sim().url}/__sim/faults`, {
      headers: { 'sim-control-token': sim().controlToken },
    }).then((r) => r.json());
    expect(after).toEqual([]);
  });
});

describe('errorRate', () => {
  it('fails a seeded, repeatable share of requests', async () => {
    const pattern = async (): Promise<number[]> => {
      const sim = await startTestSimulator({ variant: 'C', seed: 42 });
      try {
        await sim.control.setFault({ path: '/region', errorRate: 0.5 });
        const statuses: number[] = [];
        for (let i = 0; i < 40; i++) statuses.push((await api(sim, 'GET', '/region')).status);
        return statuses;
      } finally {
        await sim.close();
      }
    };
    const first = await pattern();
    expect(first).toContain(200);
    expect(first).toContain(503);
    expect(await pattern()).toEqual(first);
  });
});

describe('several faults on one method', () => {
  const LATENCY_MS = 50;
  const REQUESTS = 20;

  /** The statuses of requests each held for the latency (the ones the 503s spoil too). */
  async function heldStatuses(sim: TestSimulator): Promise<number[]> {
    const statuses = [];
    for (let i = 0; i < REQUESTS; i++) {
      statuses.push((await heldAnswer(sim, LATENCY_MS, () => api(sim, 'GET', '/region'))).status);
    }
    return statuses;
  }

  async function hitsOf(sim: TestSimulator): Promise<number[]> {
    const response = await fetch(`${sim.url}/__sim/faults`, {
      headers: { 'sim-control-token': sim.controlToken },
    });
    return ((await response.json()) as Fault[]).map((fault) => fault.hits);
  }

  // The kill loop's pair (there on PATCH): a delay on every request, then a share of 503s on top.
  async function delayThenErrors(): Promise<{ statuses: number[]; hits: number[] }> {
    const sim = await startTestSimulator({ variant: 'B', seed: 7 });
    try {
      await sim.control.setFault({ method: 'GET', latencyMs: LATENCY_MS });
      await sim.control.setFault({ method: 'GET', errorRate: 0.3, errorStatus: 503 });
      const statuses = await heldStatuses(sim);
      return { statuses, hits: await hitsOf(sim) };
    } finally {
      await sim.close();
    }
  }

  it('applies every matching fault, each with its own seeded draw', async () => {
    const first = await delayThenErrors();
    expect(first.statuses).toContain(200);
    expect(first.statuses).toContain(503);
    const errors = first.statuses.filter((status) => status === 503).length;
    expect(first.hits).toEqual([REQUESTS, errors]);
    expect(await delayThenErrors()).toEqual(first);
  });

  it('delays an error by a later fault; the first fault that fires an error decides it', async () => {
    const sim = await startTestSimulator({ variant: 'B' });
    try {
      await sim.control.setFault({ path: '/region', errorStatus: 500 });
      await sim.control.setFault({ path: '/region', errorStatus: 502 });
      await sim.control.setFault({ path: '/region', latencyMs: LATENCY_MS });
      const answer = await heldAnswer(sim, LATENCY_MS, () => api(sim, 'GET', '/region'));
      expect(answer.status).toBe(500);
    } finally {
      await sim.close();
    }
  });
});

describe('resetAfterProcessing: the answer is lost after the platform applied the request', () => {
  const sim = useSimulator({ variant: 'B' });

  /** Patients as another client of the tenant sees them (its list hides no change of ours). */
  async function patientsWith(customerId: string): Promise<unknown[]> {
    const answer = await api(sim(), 'GET', '/patient', { key: 'demo-key-2' });
    return (answer.json as Array<{ customerId?: string }>).filter(
      (p) => p.customerId === customerId,
    );
  }

  it('creates the record, then cuts the connection; the log keeps the withheld status', async () => {
    await sim().control.clearFaults();
    await sim().control.clearRequests();
    await sim().control.setFault({ method: 'POST', path: '/patient', resetAfterProcessing: true });
    await expect(
      api(sim(), 'POST', '/patient', { body: { customerId: 'K-CUT-1' } }),
    ).rejects.toThrow();
    expect(await patientsWith('K-CUT-1')).toHaveLength(1);
    const [entry] = await sim().control.requests();
    expect(entry).toMatchObject({ method: 'POST', status: 0, withheldStatus: 201 });
    await sim().control.clearFaults();
  });

  it('applies a PATCH it never answers', async () => {
    await sim().control.clearFaults();
    const [order] = (await api(sim(), 'GET', `/singleOrder?status=created&updatedAfter=${EPOCH}`))
      .json as Array<{ _id: string }>;
    const id = String(order?._id);
    await sim().control.setFault({ method: 'PATCH', resetAfterProcessing: true, times: 1 });
    const patch = api(sim(), 'PATCH', `/singleOrder/${id}`, { body: { status: 1 } });
    await expect(patch).rejects.toThrow();
    expect(await sim().control.getRecord('singleOrder', id)).toMatchObject({ status: 1 });
  });

  it('differs from reset, which cuts before anything applies', async () => {
    await sim().control.clearFaults();
    await sim().control.setFault({ method: 'POST', path: '/patient', reset: true, times: 1 });
    await expect(
      api(sim(), 'POST', '/patient', { body: { customerId: 'K-CUT-2' } }),
    ).rejects.toThrow();
    expect(await patientsWith('K-CUT-2')).toEqual([]);
  });

  it('with errorRate cuts that share after processing and answers no error', async () => {
    await sim().control.clearFaults();
    await sim().control.clearRequests();
    const fault = { method: 'POST', path: '/patient', resetAfterProcessing: true, errorRate: 0.5 };
    await sim().control.setFault(fault);
    const outcomes: string[] = [];
    for (let i = 0; i < 12; i++) {
      const sent = api(sim(), 'POST', '/patient', { body: { customerId: `K-SHARE-${i}` } });
      outcomes.push(
        await sent.then(
          (a) => String(a.status),
          () => 'cut',
        ),
      );
    }
    expect(outcomes).toContain('201');
    expect(outcomes).toContain('cut');
    expect(outcomes.filter((o) => o !== '201' && o !== 'cut')).toEqual([]);
    for (let i = 0; i < 12; i++) expect(await patientsWith(`K-SHARE-${i}`)).toHaveLength(1);
    const log = await sim().control.requests();
    expect(log.filter((e) => e.status === 0).map((e) => e.withheldStatus)).toEqual(
      outcomes.filter((o) => o === 'cut').map(() => 201),
    );
    await sim().control.clearFaults();
  });

  it('reads a list it never sends, so its loop suppression has taken effect', async () => {
    await sim().control.clearFaults();
    const [patient] = (await api(sim(), 'GET', '/patient', { key: 'demo-key-2' })).json as Array<{
      _id: string;
    }>;
    const id = String(patient?._id);
    const own = await api(sim(), 'PATCH', `/patient/${id}`, { body: { phone: '0301234' } });
    expect(own.status).toBe(200);
    await sim().control.setFault({
      method: 'GET',
      path: '/patient',
      resetAfterProcessing: true,
      times: 1,
    });
    await expect(api(sim(), 'GET', '/patient')).rejects.toThrow();
    // Under `next` the one list that would have returned our change left it out: this one has it.
    const ids = ((await api(sim(), 'GET', '/patient')).json as Array<{ _id: string }>).map(
      (p) => p._id,
    );
    expect(ids).toContain(id);
  });

  it('refuses a fault that is both reset and resetAfterProcessing', async () => {
    await expect(
      sim().control.setFault({ path: '/patient', reset: true, resetAfterProcessing: true }),
    ).rejects.toThrow(/400.*exclude each other/);
  });
});
