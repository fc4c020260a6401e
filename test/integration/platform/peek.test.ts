import { describe, expect, it } from 'vitest';
import { PROBE_ID } from '../../../src/contract/index.js';
import { clientFor, rejection } from '../../support/platform/clientFor.js';
import { json, startScriptedServer } from '../../support/platform/scriptedServer.js';
import { useSimulator } from '../../support/simulator.js';

const sim = useSimulator({ variant: 'A' });

describe("peek: a GET of a path outside the configured variant's contract", () => {
  it('answers the status and Allow header instead of throwing, and sends a GET only', async () => {
    const { client } = clientFor(sim().url, 'B', { apiKey: 'demo-key' });
    await sim().control.clearRequests();
    const list = await client.peek('erpOrder', '/erpOrder');
    expect(list).toMatchObject({ status: 405, allow: 'POST' });
    const item = await client.peek('device', `/device/${PROBE_ID}`);
    expect(item).toMatchObject({ status: 405, allow: 'PUT' });
    const missing = await client.peek('productGroup', '/productGroup');
    expect(missing.status).toBe(404);
    const listed = await client.peek(
      'patientHistory',
      '/patientHistory?updatedAfter=2030-01-01T00:00:00Z',
    );
    expect(listed.status).toBe(200);
    expect(listed.date).toBeDefined();
    expect(listed.receivedAt.getTime()).toBeGreaterThanOrEqual(listed.sentAt.getTime());
    const methods = (await sim().control.requests()).map((r) => r.method);
    expect(methods).toEqual(['GET', 'GET', 'GET', 'GET']);
    await client.close();
  });

  it('reads the platform clock from the Date header, as every answer does', async () => {
    const server = await startScriptedServer(
      json(404, {}, { date: 'Sun, 01 Mar 2026 09:00:00 GMT' }),
    );
    const { client, clock } = clientFor(server.url);
    clock.set('2026-03-01T08:00:00.000Z');
    await client.peek('patient', '/patient');
    expect(client.skewMs()).toBe(3_600_000);
    await client.close();
    await server.close();
  });

  it('a connection that cannot be made is the typed network error', async () => {
    const server = await startScriptedServer(json(200, []));
    const url = server.url;
    await server.close();
    const { client } = clientFor(url);
    await expect(rejection(client.peek('patient', '/patient'))).resolves.toMatchObject({
      code: 'UNREACHABLE',
      resource: 'patient',
    });
    await client.close();
  });
});
