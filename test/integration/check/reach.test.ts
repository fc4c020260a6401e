/**
 * Reaching the platform: TLS with a private CA (a self-signed certificate on loopback), its
 * expiry, a proxy's CONNECT tunnel, a refused port, a name that does not resolve.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server } from 'node:https';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runOnlineCheck, type CheckDeps } from '../../../src/check/index.js';
import { systemClock } from '../../../src/shared/clock.js';
import { checkRig, type CheckRig } from '../../support/check/checkRig.js';
import { selfSigned } from '../../support/platform/selfSigned.js';

let folder: string;

async function listen(server: Server | HttpServer): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function stop(server: Server | HttpServer): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

let soon: { server: Server; port: number; ca: string };
let later: { server: Server; port: number; ca: string };
let proxy: {
  server: HttpServer;
  port: number;
  seen: { target: string; auth: string | undefined }[];
};

async function httpsServer(days: number) {
  const made = selfSigned(folder, `days-${days}`, days);
  const server = createServer({ key: made.key, cert: made.cert }, (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end('[]');
  });
  return { server, port: await listen(server), ca: made.caFile };
}

/** A CONNECT proxy on loopback that notes what it was asked and pipes the tunnel through. */
async function connectProxy() {
  const seen: { target: string; auth: string | undefined }[] = [];
  const server = createHttpServer();
  server.on('connect', (request, client: Socket) => {
    seen.push({ target: request.url ?? '', auth: request.headers['proxy-authorization'] });
    const [host = '', port = '0'] = (request.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client).pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  return { server, port: await listen(server), seen };
}

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), 'check-reach-'));
  soon = await httpsServer(1);
  later = await httpsServer(60);
  proxy = await connectProxy();
});

afterAll(async () => {
  await Promise.all([stop(soon.server), stop(later.server), stop(proxy.server)]);
  rmSync(folder, { recursive: true, force: true });
});

function deps(more: Partial<CheckDeps> = {}): Partial<CheckDeps> {
  return {
    clock: systemClock,
    sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
    ...more,
  };
}

async function verdicts(
  rig: CheckRig,
  only: string[],
  platform: Record<string, unknown>,
  more: Partial<CheckDeps> = {},
) {
  const context = rig.context(
    {},
    { platform: { apiKey: 'check-key-0123456789', variant: 'B', ...platform } },
  );
  const report = await runOnlineCheck(context.config, { ...context.deps, ...deps(more) }, { only });
  return Object.fromEntries(report.checks.map((c) => [c.id, c]));
}

describe('platform.tls', () => {
  let rig: CheckRig;
  beforeAll(() => {
    rig = checkRig();
  });
  afterAll(() => rig.cleanup());

  it('trusts a private CA given as platform.caFile, and tells how long the certificate lasts', async () => {
    const checks = await verdicts(rig, ['platform.tls'], {
      baseUrl: `https://127.0.0.1:${later.port}/api`,
      caFile: later.ca,
    });
    expect(checks['platform.tls']).toMatchObject({ status: 'pass' });
    expect(checks['platform.tls']?.message).toMatch(
      /^the certificate of 127\.0\.0\.1 \(issued by 127\.0\.0\.1\) is trusted, valid until \S+ \((59|60) days\)$/,
    );
  });

  it('warns when it expires within 14 days', async () => {
    const checks = await verdicts(rig, ['platform.tls'], {
      baseUrl: `https://127.0.0.1:${soon.port}/api`,
      caFile: soon.ca,
    });
    expect(checks['platform.tls']).toMatchObject({ status: 'warn' });
    expect(checks['platform.tls']?.message).toContain('expires in 0 days');
  });

  it('fails on a certificate no CA it knows signed, and says to set platform.caFile', async () => {
    const checks = await verdicts(rig, ['platform.tls'], {
      baseUrl: `https://127.0.0.1:${later.port}/api`,
    });
    expect(checks['platform.tls']).toMatchObject({ status: 'fail' });
    expect(checks['platform.tls']?.message).toContain("the platform's certificate is not trusted");
    expect(checks['platform.tls']?.hint).toContain('set platform.caFile');
  });

  it('goes through the proxy of HTTPS_PROXY: its CONNECT tunnel, its credentials kept out of sight', async () => {
    const env = { HTTPS_PROXY: `http://proxyuser:proxy-secret-4711@127.0.0.1:${proxy.port}` };
    const checks = await verdicts(
      rig,
      ['platform.proxy', 'platform.dns', 'platform.tcp', 'platform.tls'],
      { baseUrl: `https://127.0.0.1:${later.port}/api`, caFile: later.ca },
      { env },
    );
    expect(checks['platform.proxy']).toMatchObject({
      status: 'pass',
      message: `requests to the platform go through the proxy http://127.0.0.1:${proxy.port} (from HTTPS_PROXY); it takes connections`,
    });
    expect(checks['platform.tcp']).toMatchObject({ status: 'skip' });
    expect(checks['platform.tls']).toMatchObject({ status: 'pass' });
    expect(proxy.seen.at(-1)).toEqual({
      target: `127.0.0.1:${later.port}`,
      auth: `Basic ${Buffer.from('proxyuser:proxy-secret-4711').toString('base64')}`,
    });
    expect(JSON.stringify(checks)).not.toContain('proxy-secret-4711');
  });
});

describe('platform.dns and platform.tcp', () => {
  let rig: CheckRig;
  beforeAll(() => {
    rig = checkRig();
  });
  afterAll(() => rig.cleanup());

  it('a port nothing listens on fails platform.tcp; what needs it is not tried', async () => {
    const closed = await httpsServer(60);
    await stop(closed.server);
    const checks = await verdicts(rig, ['platform'], {
      baseUrl: `http://127.0.0.1:${closed.port}`,
    });
    expect(checks['platform.tcp']).toMatchObject({ status: 'fail' });
    expect(checks['platform.tcp']?.message).toContain(
      `nothing takes connections at 127.0.0.1:${closed.port}`,
    );
    expect(checks['platform.tcp']?.message).toContain('ECONNREFUSED');
    expect(checks['platform.key']).toMatchObject({
      status: 'skip',
      message: 'not tried: platform.tcp failed',
    });
    expect(checks['platform.variant']).toMatchObject({
      status: 'skip',
      message: 'not tried: platform.tcp failed',
    });
  });

  it('a name that does not resolve fails platform.dns, naming it', async () => {
    const lookup = () =>
      Promise.reject(
        Object.assign(new Error('getaddrinfo ENOTFOUND platform.invalid'), { code: 'ENOTFOUND' }),
      );
    const checks = await verdicts(
      rig,
      ['platform.dns', 'platform.tcp'],
      { baseUrl: 'https://platform.invalid/api' },
      { lookup },
    );
    expect(checks['platform.dns']).toMatchObject({ status: 'fail' });
    expect(checks['platform.dns']?.message).toBe(
      'platform.invalid does not resolve: getaddrinfo ENOTFOUND platform.invalid',
    );
    expect(checks['platform.tcp']).toMatchObject({
      status: 'skip',
      message: 'not tried: platform.dns failed',
    });
  });
});
