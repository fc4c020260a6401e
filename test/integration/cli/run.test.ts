import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../../support/simulator.js';
import { API_KEY } from '../../support/cli/cliFolder.js';
import { eventually, withinBound, type DaemonProcess } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

const TOKEN = 'endpoint-token-9b2f61';

const rig = useDaemonRig({
  simulator: { seed: 9 },
  config: { http: { enabled: true, host: '127.0.0.1', port: 0, token: TOKEN } },
});
let daemon: DaemonProcess | undefined;
let url = '';

function post(path: string, body: unknown, token?: string, key?: string): Promise<Response> {
  return fetch(`${url}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(key === undefined ? {} : { 'idempotency-key': key }),
    },
    body: JSON.stringify(body),
  });
}

/** The daemon on port 0 (the system picks a free one); its URL comes from the start log line. */
beforeAll(async () => {
  daemon = rig().start();
  const started = await daemon.waitForLog('homecare-sync started');
  url = String(started['url']);
}, 60_000);

describe('run: the daemon process', () => {
  it('answers /healthz, /metrics and /readyz', async () => {
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const metrics = await fetch(`${url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await metrics.text()).toMatch(/^homecare_sync_\w+/m);

    const ready = await fetch(`${url}/readyz`);
    expect([200, 503]).toContain(ready.status);
    const body = (await ready.json()) as { ready: unknown; problems: unknown; checks: unknown };
    expect(Object.keys(body).sort()).toEqual(['checks', 'problems', 'ready']);
    expect(Object.keys(body.checks as object)).toEqual([
      'database',
      'storage',
      'platform',
      'erp',
      'pulls',
      'delivery',
    ]);
    expect(body.ready).toBe(ready.status === 200);
    expect(Array.isArray(body.problems)).toBe(true);
    expect((body.problems as unknown[]).every((p) => typeof p === 'string')).toBe(true);
    expect((body.problems as unknown[]).length === 0).toBe(body.ready);
  });

  it('takes ERP messages on POST /erp/orderStatus only with the token, only valid ones, once per key, and writes them to the platform', async () => {
    const { sim } = rig();
    const listed = await api(
      sim,
      'GET',
      '/singleOrder?status=updated&updatedAfter=2000-01-01T00:00:00Z',
      {
        key: 'demo-key-2',
      },
    );
    const order = (listed.json as { _id: string }[])[0];
    if (!order) throw new Error('the seed has no singleOrder with status updated');
    const message = { orderType: 'single', id: order._id, salesId: 'SO-CLI-1' };

    const anonymous = await post('/erp/orderStatus', message);
    expect(anonymous.status).toBe(401);
    const wrong = await post('/erp/orderStatus', message, `${TOKEN}x`);
    expect(wrong.status).toBe(401);

    const accepted = await post('/erp/orderStatus', message, TOKEN, 'erp-msg-1');
    expect(accepted.status).toBe(202);
    expect(await accepted.json()).toEqual({ id: 'erp-msg-1', repeat: false });
    const again = await post('/erp/orderStatus', message, TOKEN, 'erp-msg-1');
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ id: 'erp-msg-1', repeat: true });
    await eventually('the salesId on the platform', async () => {
      const record = await sim.control.getRecord('singleOrder', order._id);
      return record['salesId'] === 'SO-CLI-1' ? true : undefined;
    });
    const writes = (await sim.control.requests()).filter(
      (r) => r.method === 'PATCH' && r.path === `/singleOrder/${order._id}` && r.status === 200,
    );
    expect(writes).toHaveLength(1);

    const invalid = await post('/erp/orderStatus', { orderType: 'triple', status: 'sent' }, TOKEN);
    expect(invalid.status).toBe(400);
    const refused = (await invalid.json()) as { problems: string[] };
    expect(refused.problems.some((p) => p.includes('orderType'))).toBe(true);
    expect(refused.problems.some((p) => p.includes('status'))).toBe(true);
  });

  it('refuses a second run, and a sync, on the same database while the first runs', async () => {
    const { f } = rig();
    const second = await f.cli('run');
    expect(second.code, second.stderr).toBe(1);
    expect(second.stderr).toContain(`another homecare-sync is using ${f.database}`);
    expect(second.stderr).toMatch(/stop that one first/);
    const sync = await f.cli('sync', '--once');
    expect(sync.code, sync.stderr).toBe(1);
    expect(sync.stderr).toContain(`another homecare-sync is using ${f.database}`);
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
  });

  it('stops on SIGTERM with exit 0 and logs it; then a new run takes the database and stops on SIGINT', async () => {
    const first = daemon;
    if (!first) throw new Error('the daemon is not running');
    first.signal('SIGTERM');
    expect(await withinBound(first.exited, 'the daemon to exit after SIGTERM')).toBe(0);
    const stopped = await first.waitForLog('homecare-sync stopped');
    expect(stopped['level']).toBe('info');
    expect(first.stderr()).toBe('');

    daemon = rig().start();
    await daemon.waitForLog('homecare-sync started');
    daemon.signal('SIGINT');
    expect(await withinBound(daemon.exited, 'the second daemon to exit after SIGINT')).toBe(0);
    await daemon.waitForLog('homecare-sync stopped');
  });

  it('printed only JSON lines on stdout, without the API key or the endpoint token', () => {
    const { daemons } = rig();
    expect(daemons).toHaveLength(2);
    for (const started of daemons) {
      const lines = started.stdout().trimEnd().split('\n');
      expect(lines.length).toBeGreaterThan(2);
      for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
      expect(started.stdout()).not.toContain(API_KEY);
      expect(started.stdout()).not.toContain(TOKEN);
    }
  });
});
