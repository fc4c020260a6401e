import { afterEach, describe, expect, it } from 'vitest';
import { clientFor, collect } from '../../support/platform/clientFor.js';
import {
  json,
  startScriptedServer,
  text,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

const UUID = '0b6f1a3e-7c1d-4c3e-9a59-4a7c2d1e8f00';

let server: ScriptedServer | undefined;
afterEach(async () => server?.close());

describe('updatePatient follows the contract of the variant', () => {
  it.each([
    ['A', 'PUT'],
    ['B', 'PATCH'],
    ['C', 'PUT'],
  ] as const)('variant %s sends %s', async (variant, method) => {
    server = await startScriptedServer(json(200, { _id: UUID, customerId: 'K-1' }));
    const { client } = clientFor(server.url, variant);
    const answer = await client.updatePatient(UUID, { customerId: 'K-1' });
    expect(answer).toEqual({ _id: UUID, customerId: 'K-1' });
    expect(server.requests[0]).toMatchObject({
      method,
      url: `/patient/${UUID}`,
      body: '{"customerId":"K-1"}',
    });
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
    await client.close();
  });
});

describe('paths, queries and answers', () => {
  it('keeps the path of the base URL and encodes ids and queries', async () => {
    server = await startScriptedServer(json(200, {}), json(200, []));
    const { client } = clientFor(`${server.url}/api/v1/`, 'B');
    await client.getArticle('A 100/7');
    await collect(
      client.listSingleOrders({
        status: 'created',
        updatedAfter: new Date('2026-01-02T03:04:05.000Z'),
      }),
    );
    expect(server.requests.map((r) => r.url)).toEqual([
      '/api/v1/article/A%20100%2F7',
      '/api/v1/singleOrder?status=created&updatedAfter=2026-01-02T03%3A04%3A05.000Z',
    ]);
    await client.close();
  });

  it('asks the customer mapping by query (variant C)', async () => {
    server = await startScriptedServer(json(200, { _id: UUID, customerId: 'K 1' }));
    const { client } = clientFor(server.url, 'C');
    await expect(client.getPatientCustomerMapping('K 1')).resolves.toEqual({
      _id: UUID,
      customerId: 'K 1',
    });
    expect(server.requests[0]?.url).toBe('/patient/customerMapping?customerId=K+1');
    await client.close();
  });

  it('uses the configured path of a resource the spec leaves open', async () => {
    server = await startScriptedServer(json(200, [{ _id: UUID }]));
    const { client } = clientFor(server.url, 'A', { paths: { postalCode: '/masterdata/plz' } });
    await collect(client.listPostalCodes({ postalCode: '10115' }));
    expect(server.requests[0]?.url).toBe('/masterdata/plz?postalCode=10115');
    await client.close();
  });

  it('reads a write acknowledged with an empty body as {}', async () => {
    server = await startScriptedServer(text(204, ''));
    const { client } = clientFor(server.url, 'A');
    await expect(client.patchSingleOrder(UUID, { status: 1 })).resolves.toEqual({});
    await client.close();
  });

  it("knows the status each write was answered with, and that a read's record answers no write", async () => {
    server = await startScriptedServer(
      json(201, { _id: UUID, customerId: 'K-1' }),
      text(204, ''),
      json(200, { _id: UUID, customerId: 'K-1' }),
    );
    const { client } = clientFor(server.url, 'B');
    const created = await client.createPatient({ customerId: 'K-1' });
    const patched = await client.patchSingleOrder(UUID, { status: 1 });
    const read = await client.getPatient(UUID);
    expect([created, patched, read].map((r) => client.answerStatus(r))).toEqual([
      201,
      204,
      undefined,
    ]);
    expect(client.answerStatus({ ...created })).toBeUndefined();
    await client.close();
  });

  it('gets a document as PDF bytes or as XML text', async () => {
    const pdf = Buffer.from('%PDF-1.7\n\x00\xff binary', 'latin1');
    server = await startScriptedServer(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/pdf' });
        response.end(pdf);
      },
      text(200, '<document id="1"/>', { 'content-type': 'application/xml' }),
    );
    const { client } = clientFor(server.url, 'C');
    expect(Buffer.compare(await client.getDocumentPdf(UUID), pdf)).toBe(0);
    await expect(client.getDocumentXml(UUID)).resolves.toBe('<document id="1"/>');
    expect(server.requests.map((r) => r.url)).toEqual([
      `/document/${UUID}?xml=false`,
      `/document/${UUID}?xml=true`,
    ]);
    await client.close();
  });

  it('lists generically, for pullers that iterate resources', async () => {
    server = await startScriptedServer(json(200, [{ _id: 'r1' }, { _id: 'r2' }]));
    const { client } = clientFor(server.url, 'B');
    await expect(collect(client.list('region'))).resolves.toEqual([{ _id: 'r1' }, { _id: 'r2' }]);
    expect(server.requests[0]).toMatchObject({ method: 'GET', url: '/region' });
    await client.close();
  });
});
