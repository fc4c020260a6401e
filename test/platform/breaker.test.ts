import { afterEach, describe, expect, it } from 'vitest';
import { TransientError } from '../../src/shared/errors.js';
import { clientFor, collect, rejection } from './clientFor.js';
import { json, startScriptedServer, text, type ScriptedServer } from './scriptedServer.js';

const UUID = '0b6f1a3e-7c1d-4c3e-9a59-4a7c2d1e8f00';
const AFTER = '2026-01-01T00:00:00Z';

let server: ScriptedServer | undefined;
afterEach(async () => server?.close());

describe('an unreachable platform opens the breaker', () => {
  it('after one list spent its retries on 503, the next lists fail at once without a request', async () => {
    server = await startScriptedServer(text(503, 'down'));
    const { client, sleeps } = clientFor(server.url);
    const first = await rejection(
      collect(client.listArticles({ status: 'updated', updatedAfter: AFTER })),
    );
    expect(first).toMatchObject({ code: 'HTTP_503' });
    expect(server.requests).toHaveLength(3);

    const second = await rejection(collect(client.listPatients({ updatedAfter: AFTER })));
    expect(second).toBeInstanceOf(TransientError);
    expect(second).toMatchObject({ code: 'PLATFORM_UNREACHABLE', resource: 'patient' });
    expect((second as Error).message).toContain('not sent: the platform was unreachable');
    expect((second as Error).message).toContain('HTTP 503');
    const third = await rejection(client.getPatient(UUID));
    expect(third).toMatchObject({ code: 'PLATFORM_UNREACHABLE' });
    expect(server.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
    await client.close();
  });

  it('sends again once the pause is over, and a success closes it', async () => {
    server = await startScriptedServer(
      text(502, 'bad gateway'),
      text(502, 'bad gateway'),
      text(502, 'bad gateway'),
      json(200, []),
    );
    const { client, clock } = clientFor(server.url);
    await rejection(collect(client.listArticles({ status: 'updated', updatedAfter: AFTER })));
    clock.advance(29_999);
    await expect(rejection(client.getPatient(UUID))).resolves.toMatchObject({
      code: 'PLATFORM_UNREACHABLE',
      retryAfterMs: 1,
    });
    clock.advance(1);
    await expect(
      collect(client.listArticles({ status: 'updated', updatedAfter: AFTER })),
    ).resolves.toEqual([]);
    await expect(collect(client.listPatients({ updatedAfter: AFTER }))).resolves.toEqual([]);
    expect(server.requests).toHaveLength(5);
    await client.close();
  });

  it('a refused connection opens it too', async () => {
    server = await startScriptedServer(json(200, []));
    const url = server.url;
    await server.close();
    server = undefined;
    const { client } = clientFor(url);
    await expect(
      rejection(collect(client.listArticles({ status: 'updated', updatedAfter: AFTER }))),
    ).resolves.toMatchObject({ code: 'NETWORK' });
    await expect(
      rejection(collect(client.listPatients({ updatedAfter: AFTER }))),
    ).resolves.toMatchObject({ code: 'PLATFORM_UNREACHABLE' });
    await client.close();
  });

  it('a 404 or a 500 of one record does not open it', async () => {
    server = await startScriptedServer(
      text(404, 'no such patient'),
      text(500, 'bug'),
      text(500, 'bug'),
      text(500, 'bug'),
      json(200, []),
    );
    const { client } = clientFor(server.url);
    await expect(rejection(client.getPatient(UUID))).resolves.toMatchObject({ code: 'HTTP_404' });
    await expect(rejection(client.getPatient(UUID))).resolves.toMatchObject({ code: 'HTTP_500' });
    await expect(
      collect(client.listArticles({ status: 'updated', updatedAfter: AFTER })),
    ).resolves.toEqual([]);
    await client.close();
  });
});

describe('a path the configured variant lists is missing', () => {
  it('a 404 on a list points at platform.variant', async () => {
    server = await startScriptedServer(text(404, 'Not Found'));
    const { client } = clientFor(server.url);
    const error = await rejection(
      collect(client.listArticles({ status: 'updated', updatedAfter: AFTER })),
    );
    expect((error as Error).message).toContain('the platform has no such path');
    expect((error as Error).message).toContain('check platform.variant');
    expect((error as Error).message).not.toContain('check the id');
    await client.close();
  });

  it('a 405 points at platform.variant; a 404 of one record names the id first', async () => {
    server = await startScriptedServer(text(405, 'Method Not Allowed'), text(404, 'Not Found'));
    const { client } = clientFor(server.url);
    const refused = await rejection(client.patchSingleOrder(UUID, { status: 1 }));
    expect((refused as Error).message).toMatch(/HTTP 405; .*check platform\.variant/);
    const missing = await rejection(client.getPatient(UUID));
    expect((missing as Error).message).toMatch(/HTTP 404; .*check the id.*check platform\.variant/);
    await client.close();
  });
});
