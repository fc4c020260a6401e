import { afterEach, describe, expect, it } from 'vitest';
import { TransientError } from '../../../src/shared/errors.js';
import { clientFor, collect, rejection } from '../../support/platform/clientFor.js';
import {
  json,
  startScriptedServer,
  text,
  type ScriptedServer,
} from '../../support/platform/scriptedServer.js';

const UUID = '0b6f1a3e-7c1d-4c3e-9a59-4a7c2d1e8f00';
const AFTER = '2026-01-01T00:00:00Z';

let server: ScriptedServer | undefined;
afterEach(async () => server?.close());

describe('only an unreachable platform opens the platform-wide breaker', () => {
  it('a refused connection opens it: every later read fails at once, whatever its resource', async () => {
    server = await startScriptedServer(json(200, []));
    const url = server.url;
    await server.close();
    server = undefined;
    const { client, sleeps } = clientFor(url);
    const first = await rejection(
      collect(client.listArticles({ status: 'updated', updatedAfter: AFTER })),
    );
    expect(first).toMatchObject({ code: 'UNREACHABLE', resource: 'article' });
    expect(sleeps).toHaveLength(2);

    const second = await rejection(collect(client.listPatients({ updatedAfter: AFTER })));
    expect(second).toBeInstanceOf(TransientError);
    expect(second).toMatchObject({ code: 'PLATFORM_UNREACHABLE', resource: 'patient' });
    expect((second as Error).message).toContain('not sent: the platform was unreachable');
    expect((second as Error).message).toContain('ECONNREFUSED');
    await expect(rejection(client.getPatient(UUID))).resolves.toMatchObject({
      code: 'PLATFORM_UNREACHABLE',
    });
    expect(sleeps).toHaveLength(2);
    await client.close();
  });

  it("a list's 503 opens that resource's breaker only: other resources and records are sent", async () => {
    server = await startScriptedServer(
      text(503, 'down'),
      text(503, 'down'),
      text(503, 'down'),
      json(200, []),
      json(200, { _id: UUID }),
    );
    const { client } = clientFor(server.url);
    const first = await rejection(
      collect(client.listArticles({ status: 'updated', updatedAfter: AFTER })),
    );
    expect(first).toMatchObject({ code: 'HTTP_503', resource: 'article' });
    expect(server.requests).toHaveLength(3);

    await expect(collect(client.listPatients({ updatedAfter: AFTER }))).resolves.toEqual([]);
    await expect(client.getArticle(UUID)).resolves.toMatchObject({ _id: UUID });
    const again = await rejection(
      collect(client.listArticles({ status: 'created', updatedAfter: AFTER })),
    );
    expect(again).toMatchObject({ code: 'RESOURCE_FAILING', resource: 'article' });
    expect((again as Error).message).toContain('not sent: the article list failed a moment ago');
    expect((again as Error).message).toContain('HTTP 503');
    expect(server.requests).toHaveLength(5);
    await client.close();
  });

  it("a list's time-out is that resource's failure, not the platform's", async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server = await startScriptedServer(
      async (_request, response) => {
        await held;
        response.end('[]');
      },
      (_request, response) => void response.end('[]'),
    );
    const { client } = clientFor(server.url, 'B', {
      timeoutMs: 200,
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const hung = await rejection(
      collect(client.listArticles({ status: 'updated', updatedAfter: AFTER })),
    );
    release();
    expect(hung).toMatchObject({ code: 'NETWORK', resource: 'article' });
    expect((hung as Error).message).toContain('UND_ERR_HEADERS_TIMEOUT');
    await expect(collect(client.listPatients({ updatedAfter: AFTER }))).resolves.toEqual([]);
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
    await expect(
      rejection(collect(client.listArticles({ status: 'created', updatedAfter: AFTER }))),
    ).resolves.toMatchObject({ code: 'RESOURCE_FAILING', retryAfterMs: 1 });
    clock.advance(1);
    await expect(
      collect(client.listArticles({ status: 'updated', updatedAfter: AFTER })),
    ).resolves.toEqual([]);
    await expect(
      collect(client.listArticles({ status: 'created', updatedAfter: AFTER })),
    ).resolves.toEqual([]);
    expect(server.requests).toHaveLength(5);
    await client.close();
  });

  it('a 404 or a 500 of one record opens no breaker', async () => {
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
    await expect(collect(client.listPatients({ updatedAfter: AFTER }))).resolves.toEqual([]);
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
