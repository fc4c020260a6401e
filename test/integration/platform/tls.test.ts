import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SetupError, TransientError } from '../../../src/shared/errors.js';
import { clientFor, collect, rejection } from '../../support/platform/clientFor.js';
import { selfSigned } from '../../support/platform/selfSigned.js';

const UUID = '0b6f1a3e-7c1d-4c3e-9a59-4a7c2d1e8f00';

let folder: string;
let server: Server;
let url: string;

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'platform-tls-'));
  const made = selfSigned(folder, 'ca', 1);
  server = createServer({ key: made.key, cert: made.cert }, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ _id: UUID }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await rm(folder, { recursive: true, force: true });
});

describe('TLS with an extra CA', () => {
  it('trusts the platform when caFile holds its CA', async () => {
    const { client } = clientFor(url, 'B', { caFile: join(folder, 'ca.pem') });
    await expect(client.getPatient(UUID)).resolves.toEqual({ _id: UUID });
    await client.close();
  });

  it('refuses an unknown certificate and says to set caFile', async () => {
    const { client } = clientFor(url, 'B', {
      retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const error = await rejection(client.getPatient(UUID));
    expect(error).toBeInstanceOf(TransientError);
    expect((error as Error).message).toContain('platform.caFile');
    // No request of any resource gets through this handshake: the platform is unreachable.
    expect(error).toMatchObject({ code: 'UNREACHABLE' });
    await expect(
      rejection(collect(client.listPatients({ updatedAfter: '2026-01-01T00:00:00Z' }))),
    ).resolves.toMatchObject({ code: 'PLATFORM_UNREACHABLE' });
    await client.close();
  });

  it('names an unreadable caFile as a setup problem', () => {
    const missing = join(folder, 'missing.pem');
    expect(() => clientFor(url, 'B', { caFile: missing })).toThrow(SetupError);
    expect(() => clientFor(url, 'B', { caFile: missing })).toThrow(missing);
  });
});
