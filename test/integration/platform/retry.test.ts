import { afterEach, describe, expect, it } from 'vitest';
import { TransientError } from '../../../src/shared/errors.js';
import { clientFor, collect, rejection } from '../../support/platform/clientFor.js';
import {
  cutAfter,
  json,
  startScriptedServer,
  text,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

const UUID = '0b6f1a3e-7c1d-4c3e-9a59-4a7c2d1e8f00';
const AFTER = '2026-01-01T00:00:00Z';

let server: ScriptedServer | undefined;
afterEach(async () => server?.close());

describe('reads are retried', () => {
  it('a GET that fails twice with 503 then succeeds, backing off with jitter', async () => {
    server = await startScriptedServer(
      text(503, 'busy'),
      text(503, 'busy'),
      json(200, { _id: UUID, lastName: 'Muster' }),
    );
    const { client, sleeps } = clientFor(server.url);
    await expect(client.getPatient(UUID)).resolves.toEqual({ _id: UUID, lastName: 'Muster' });
    expect(server.requests).toHaveLength(3);
    // random() is 0.999: just under 100 ms, then just under 200 ms.
    expect(sleeps).toEqual([99, 199]);
    await client.close();
  });

  it('gives up after the configured attempts with the last TransientError', async () => {
    server = await startScriptedServer(text(502, 'bad gateway'));
    const { client, sleeps } = clientFor(server.url);
    const error = await rejection(client.getPatient(UUID));
    expect(error).toBeInstanceOf(TransientError);
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    await client.close();
  });

  it('honours Retry-After in seconds and as an HTTP date on the platform clock', async () => {
    const platformNow = new Date('2026-03-01T12:00:00.000Z');
    server = await startScriptedServer(
      text(429, 'slow down', { 'retry-after': '3' }),
      text(503, 'later', {
        date: platformNow.toUTCString(),
        'retry-after': new Date(platformNow.getTime() + 8000).toUTCString(),
      }),
      json(200, []),
    );
    const { client, sleeps } = clientFor(server.url);
    await collect(client.listArticles({ status: 'updated', updatedAfter: AFTER }));
    expect(sleeps).toEqual([3000, 8000]);
    expect(server.requests).toHaveLength(3);
    await client.close();
  });

  it('does not sleep through a Retry-After longer than the cap; the error carries it', async () => {
    server = await startScriptedServer(text(503, 'maintenance', { 'retry-after': '3600' }));
    const { client, sleeps } = clientFor(server.url);
    const error = await rejection(client.getPatient(UUID));
    expect((error as TransientError).retryAfterMs).toBe(3_600_000);
    expect(sleeps).toEqual([]);
    expect(server.requests).toHaveLength(1);
    await client.close();
  });

  it('does not retry a permanent error', async () => {
    server = await startScriptedServer(text(404, 'no such patient'));
    const { client } = clientFor(server.url);
    await rejection(client.getPatient(UUID));
    expect(server.requests).toHaveLength(1);
    await client.close();
  });
});

describe('writes are never retried here', () => {
  it.each([
    [
      'PATCH',
      (c: ReturnType<typeof clientFor>['client']) => c.patchSingleOrder(UUID, { status: 1 }),
    ],
    ['POST', (c: ReturnType<typeof clientFor>['client']) => c.createPatientNote({ noteText: 'n' })],
    [
      'PUT',
      (c: ReturnType<typeof clientFor>['client']) =>
        c.replaceErpOrder('S-1', {
          patientId: UUID,
          outboundDate: AFTER,
          deliveryAddress: {},
          erpOrderedArticleLines: [{}],
          // Variant B's body schema marks every ERP order field required.
          salesId: 'S-1',
          annotation: '',
          prescriptionStatus: '',
          trackingLink: '',
          therapyId: 1,
          completed: false,
          trackingInfo: [],
        }),
    ],
  ])('%s on 503', async (_method, call) => {
    server = await startScriptedServer(text(503, 'busy'), json(200, {}));
    const { client, sleeps } = clientFor(server.url);
    const error = await rejection(call(client));
    expect(error).toBeInstanceOf(TransientError);
    expect(server.requests).toHaveLength(1);
    expect(sleeps).toEqual([]);
    await client.close();
  });
});

describe('lists that fail in the middle', () => {
  it('start over when the caller has seen no item yet', async () => {
    server = await startScriptedServer(cutAfter('[ '), json(200, [{ _id: 'a' }, { _id: 'b' }]));
    const { client } = clientFor(server.url);
    const items = await collect(
      client.listSingleOrders({ status: 'created', updatedAfter: AFTER }),
    );
    expect(items).toEqual([{ _id: 'a' }, { _id: 'b' }]);
    expect(server.requests).toHaveLength(2);
    await client.close();
  });

  it('surface the error once the caller has items, so nothing is handed out twice', async () => {
    let cut: () => void = () => undefined;
    const cutNow = new Promise<void>((resolve) => (cut = resolve));
    server = await startScriptedServer(
      cutAfter('[{"_id":"a"},{"_id":"b"},{"_id":', cutNow),
      json(200, [{ _id: 'a' }, { _id: 'b' }, { _id: 'c' }]),
    );
    const { client } = clientFor(server.url);
    const seen: unknown[] = [];
    const error = await rejection(
      (async () => {
        for await (const item of client.listSingleOrders({
          status: 'created',
          updatedAfter: AFTER,
        })) {
          seen.push(item);
          if (seen.length === 2) cut();
        }
      })(),
    );
    expect(error).toBeInstanceOf(TransientError);
    expect(seen).toEqual([{ _id: 'a' }, { _id: 'b' }]);
    expect(server.requests).toHaveLength(1);
    await client.close();
  });
});
