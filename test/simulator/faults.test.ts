import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { api, startTestSimulator, useSimulator } from '../support/simulator.js';

const headers = { 'service-api-key': 'demo-key' };

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

  it('delays the answer by latencyMs', async () => {
    await sim().control.setFault({ path: '/region', latencyMs: 300, times: 1 });
    const started = performance.now();
    expect((await api(sim(), 'GET', '/region')).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
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

  it('trickles the body over slowBodyMs and still sends all of it', async () => {
    const whole = (await api(sim(), 'GET', '/region')).text;
    await sim().control.setFault({ path: '/region', slowBodyMs: 400, times: 1 });
    const started = performance.now();
    const answer = await api(sim(), 'GET', '/region');
    expect(performance.now() - started).toBeGreaterThanOrEqual(300);
    expect(answer.text).toBe(whole);
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
