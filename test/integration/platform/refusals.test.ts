import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PermanentError } from '../../../src/shared/errors.js';
import { API_KEY, clientFor, collect, rejection } from '../../support/platform/clientFor.js';
import {
  json,
  startScriptedServer,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

const UUID = '0b6f1a3e-7c1d-4c3e-9a59-4a7c2d1e8f00';
const AFTER = '2026-01-01T00:00:00Z';

let server: ScriptedServer;
beforeAll(async () => {
  server = await startScriptedServer(json(200, {}));
});
afterAll(async () => server.close());

/** Runs `call`, expects a CONTRACT_REFUSAL and that the server saw nothing. */
async function refused(call: () => Promise<unknown>): Promise<PermanentError> {
  const before = server.requests.length;
  const error = await rejection(Promise.resolve().then(call));
  expect(error).toBeInstanceOf(PermanentError);
  expect((error as PermanentError).code).toBe('CONTRACT_REFUSAL');
  expect(server.requests.length).toBe(before);
  expect((error as Error).message).not.toContain(API_KEY);
  return error as PermanentError;
}

describe('contract refusals happen before anything is sent', () => {
  it('a list without the required updatedAfter', async () => {
    const { client } = clientFor(server.url, 'B');
    const error = await refused(() => collect(client.list('singleOrder', { status: 'created' })));
    expect(error.message).toContain('query parameter updatedAfter is required');
    expect(error.message).toContain('GET /singleOrder');
    expect(error.resource).toBe('singleOrder');
  });

  it('a parameter besides status and updatedAfter on directOrder', async () => {
    const { client } = clientFor(server.url, 'A');
    const error = await refused(() =>
      collect(client.list('directOrder', { status: 'created', updatedAfter: AFTER, salesId: 'x' })),
    );
    expect(error.message).toContain('query parameter salesId is not allowed here');
  });

  it('_id together with updatedAfter on a variant B doctor list', async () => {
    const { client } = clientFor(server.url, 'B');
    const error = await refused(() =>
      collect(client.listDoctors({ _id: UUID, updatedAfter: AFTER })),
    );
    expect(error.message).toContain('only one of the query parameters _id, updatedAfter');
  });

  it('but variant C takes both on the doctor list', async () => {
    const { client } = clientFor(server.url, 'C');
    const before = server.requests.length;
    await expect(
      client.send('doctor', 'list', { query: { _id: UUID, updatedAfter: AFTER } }),
    ).resolves.toEqual({});
    expect(server.requests.length).toBe(before + 1);
    await client.close();
  });

  it('any query parameter on PATCH /singleOrder', async () => {
    const { client } = clientFor(server.url, 'C');
    const error = await refused(() =>
      client.send('singleOrder', 'update', {
        id: UUID,
        query: { dryRun: true },
        body: { status: 1 },
      }),
    );
    expect(error.message).toContain('PATCH /singleOrder/{id}');
    expect(error.message).toContain('query parameter dryRun is not allowed here');
    expect(error.id).toBe(UUID);
  });

  it('_id in the body of a device create', async () => {
    const { client } = clientFor(server.url, 'A');
    const error = await refused(() =>
      client.createDevice({ _id: UUID, patientId: UUID, serialNumber: 'S1', description: 'd' }),
    );
    expect(error.message).toContain('_id must not be supplied');
  });

  it('a required body field missing, each named', async () => {
    const { client } = clientFor(server.url, 'B');
    const error = await refused(() => client.createIntegratedCare({ patientId: UUID }));
    expect(error.message).toContain('therapyId is required');
    expect(error.message).toContain('isInitialCare is required');
  });

  it('a method the variant lacks names the variants that have it', async () => {
    const { client } = clientFor(server.url, 'B');
    const error = await refused(() => client.patchArticle(UUID, { name: 'x' }));
    expect(error.message).toContain('variant B has no update of article');
    expect(error.message).toContain('only variant A offers it');
  });

  it('a read-only integratedCare in variant C', async () => {
    const { client } = clientFor(server.url, 'C');
    const error = await refused(() => client.patchIntegratedCare(UUID, { status: 2 }));
    expect(error.message).toContain('only variants A and B offer it');
  });

  it('a missing id for an item path', async () => {
    const { client } = clientFor(server.url, 'B');
    const error = await refused(() => client.patchSingleOrder('', { status: 1 }));
    expect(error.message).toContain('the path needs the _id of the record');
  });

  it('a list throws at once, before it is iterated', () => {
    const { client } = clientFor(server.url, 'B');
    const before = server.requests.length;
    expect(() => client.list('article', { updatedAfter: AFTER })).toThrow(
      /query parameter status is required/,
    );
    expect(server.requests.length).toBe(before);
  });
});
