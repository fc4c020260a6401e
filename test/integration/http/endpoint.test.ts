import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Metrics } from '../../../src/http/metrics.js';
import { readinessOf } from '../../../src/http/readiness.js';
import type { HttpEndpoint, HttpEndpointOptions } from '../../../src/http/server.js';
import type { InboundResult } from '../../../src/pushback/index.js';
import { startTestEndpoint } from '../../support/endpoint.js';

let endpoint: HttpEndpoint;
let received: Array<{ kind: string; body: unknown }>;
let ready = true;
let live = true;
const metrics = new Metrics(
  { version: '1.2.3', variant: 'B' },
  { queueByState: () => ({ pending: 3 }), deadLetters: () => 2, undelivered: () => 5 },
);
const platformDown = { ok: false, problem: 'GET /region answered HTTP 503' };
const notReady = readinessOf({ database: { ok: true }, platform: platformDown });

/** The endpoint on loopback with a fake hand-off; `options` replace the test defaults. */
function startEndpoint(options: Partial<HttpEndpointOptions> = {}) {
  return startTestEndpoint(
    { bodyLimitBytes: 1024, ...options },
    {
      liveness: () => (live ? { ok: true } : { ok: false, problem: 'does not answer' }),
      readiness: () => (ready ? readinessOf({ database: { ok: true } }) : notReady),
      inboundReadiness: () => readinessOf({ database: { ok: live } }),
      metrics: async () => ({
        contentType: metrics.registry.contentType,
        body: await metrics.registry.metrics(),
      }),
      inbound(kind, body): InboundResult {
        const record = body as Record<string, unknown>;
        if (typeof record['salesId'] !== 'string')
          return { status: 'invalid', problems: ['salesId: required'] };
        received.push({ kind, body });
        return { status: 'accepted', id: received.length };
      },
    },
  );
}

beforeEach(async () => {
  received = [];
  ready = true;
  live = true;
  endpoint = await startEndpoint();
});
afterEach(() => endpoint.close());

const post = (path: string, body: string, token?: string) =>
  fetch(`${endpoint.url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body,
  });

describe('the daemon endpoint', () => {
  it('answers /healthz and reports readiness with 200 or 503', async () => {
    expect((await fetch(`${endpoint.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${endpoint.url}/readyz`)).status).toBe(200);
    ready = false;
    const response = await fetch(`${endpoint.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      ready: false,
      problems: ['platform: the platform does not answer as expected'],
      checks: {
        database: { ok: true },
        platform: { ok: false, problem: 'the platform does not answer as expected' },
      },
    });
  });

  it('shows the details of /readyz only to a caller with the token', async () => {
    ready = false;
    const response = await fetch(`${endpoint.url}/readyz`, {
      headers: { authorization: 'Bearer erp-secret' },
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      ready: false,
      problems: ['platform: GET /region answered HTTP 503'],
      checks: { database: { ok: true }, platform: platformDown },
    });
  });

  it('keeps /readyz/inbound ready while the platform is down, and /healthz follows the database', async () => {
    ready = false;
    expect((await fetch(`${endpoint.url}/readyz/inbound`)).status).toBe(200);
    live = false;
    const health = await fetch(`${endpoint.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'down', problem: 'database: does not answer' });
    expect((await fetch(`${endpoint.url}/readyz/inbound`)).status).toBe(503);
  });

  it('serves Prometheus text with the stored counts', async () => {
    const text = await (await fetch(`${endpoint.url}/metrics`)).text();
    expect(text).toContain('homecare_sync_queue_jobs{state="pending"} 3');
    expect(text).toContain('homecare_sync_dead_letters 2');
    expect(text).toContain('homecare_sync_undelivered_records 5');
    expect(text).toContain(
      `homecare_sync_build_info{version="1.2.3",variant="B",node="${process.version}"} 1`,
    );
  });

  it('serves the Node.js process metrics under their stock names, for stock dashboards', async () => {
    const text = await (await fetch(`${endpoint.url}/metrics`)).text();
    expect(text).toMatch(/^process_cpu_seconds_total /m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes /m);
    expect(text).not.toContain('homecare_sync_process_');
  });

  it('refuses inbound messages without the bearer token', async () => {
    expect((await post('/erp/erpOrder', '{"salesId":"S1"}')).status).toBe(401);
    expect((await post('/erp/erpOrder', '{"salesId":"S1"}', 'wrong')).status).toBe(401);
    expect(received).toEqual([]);
  });

  it('accepts a valid message with 202 after storing it', async () => {
    const response = await post('/erp/erpOrder', '{"salesId":"S1"}', 'erp-secret');
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ id: 1, repeat: false });
    expect(received).toEqual([{ kind: 'erpOrder', body: { salesId: 'S1' } }]);
  });

  it('answers 400 with the field problems, 404 for an unknown kind, 413 for a large body', async () => {
    const invalid = await post('/erp/erpOrder', '{"salesId":1}', 'erp-secret');
    expect(invalid.status).toBe(400);
    expect(await invalid.json()).toMatchObject({ problems: ['salesId: required'] });
    expect((await post('/erp/invoice', '{}', 'erp-secret')).status).toBe(404);
    expect((await post('/erp/erpOrder', '{not json', 'erp-secret')).status).toBe(400);
    const large = await post(
      '/erp/erpOrder',
      JSON.stringify({ salesId: 'x'.repeat(2000) }),
      'erp-secret',
    );
    expect(large.status).toBe(413);
    expect(received).toEqual([]);
  });

  it('answers 400 naming the nesting for a body that nests too deep, at any depth', async () => {
    const nested = (levels: number) =>
      `{"salesId":"S1","x":${'['.repeat(levels)}${']'.repeat(levels)}}`;
    const shallow = await post('/erp/erpOrder', nested(100), 'erp-secret');
    expect(shallow.status).toBe(400);
    expect(((await shallow.json()) as { message: string }).message).toMatch(
      /nest deeper than 64 levels/,
    );
    const roomy = await startEndpoint({ bodyLimitBytes: 1_048_576 });
    try {
      const deep = await fetch(`${roomy.url}/erp/erpOrder`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer erp-secret' },
        body: nested(100_000),
      });
      expect(deep.status).toBe(400);
    } finally {
      await roomy.close();
    }
    expect(received).toEqual([]);
  });
});
