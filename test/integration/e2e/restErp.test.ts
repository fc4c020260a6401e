import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { getJob, listJobs, retryJob } from '../../../src/queue/index.js';
import { supersedingKind } from '../../../src/pushback/index.js';
import {
  countJobs,
  countOpenDeadJobs,
  countUndelivered,
  getMirror,
  listStoredJobs,
} from '../../../src/store/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { failWith503, startFakeErp, type FakeErp } from '../../support/fakeErp.js';
import { api, startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';

describe('the daemon with the REST adapter', () => {
  let sim: TestSimulator;
  let simClock: FakeClock;
  let erp: FakeErp;
  let rig: AppRig;
  let app: App;

  beforeEach(async () => {
    simClock = new FakeClock(START);
    sim = await startTestSimulator({ variant: 'C', clock: simClock, seed: 5 });
    erp = await startFakeErp();
    rig = appRig(sim.url, 'C', START, {
      erp: {
        adapter: 'rest',
        rest: { baseUrl: `${erp.url}/api`, auth: { type: 'bearer', token: 'erp-secret' } },
      },
      http: { enabled: true, port: 0, token: 'inbound-secret-6d20f4b8' },
    });
    app = await rig.open();
  });
  afterEach(async () => {
    await app.close();
    await erp.close();
    await sim.close();
    rig.cleanup();
  });

  const pass = async () => {
    simClock.advance(60_000);
    rig.clock.advance(60_000);
    return syncOnce(app, ['patient', 'article', 'integratedCare', 'singleOrder']);
  };

  it('retries an ERP that fails its first calls and then holds each record version once', async () => {
    // Each version is tried on its own: the ERP is down for every call of the first pass.
    erp.script(...failWith503(1_000));
    const first = await pass();
    expect(first.ok).toBe(false);
    expect(first.delivery.undelivered).toBeGreaterThan(0);
    expect(erp.stored.size).toBe(0);
    erp.recover();
    const second = await pass();
    expect(second.ok).toBe(true);
    expect(second.delivery.undelivered).toBe(0);
    expect(countUndelivered(app.store)).toBe(0);

    const keys = erp.requests.map((r) => String(r.headers['idempotency-key']));
    const stored = [...erp.stored.keys()];
    expect(new Set(stored).size).toBe(stored.length);
    expect(stored.length).toBe(new Set(keys).size);
    expect(keys.some((k) => k.startsWith('singleOrder:'))).toBe(true);
    expect(erp.requests[0]?.headers.authorization).toBe('Bearer erp-secret');

    const created = (
      await api(sim, 'GET', '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00Z', {
        key: 'demo-key-2',
      })
    ).json;
    expect(created).toEqual([]);
  });

  it('dead-letters a record the ERP refuses, goes on with the others, and delivers it again when replayed', async () => {
    erp.script({ kind: 'status', status: 422, body: { error: 'unknown article group' } });
    const report = await pass();
    expect(report.delivery.refused).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.delivery.delivered).toBeGreaterThan(0);
    const [dead] = listJobs(app.store, { dead: true });
    const refused = dead?.payload as { resource: string; id: string; version: string };
    expect(dead).toMatchObject({
      kind: `deliver.${refused.resource}`,
      entityKey: `${refused.resource}:${refused.id}`,
    });
    expect(dead?.lastError).toMatch(/422/);
    expect(getJob(app.store, dead?.id ?? 0)?.deadLetters[0]).toMatchObject({ httpStatus: 422 });

    expect((await pass()).ok).toBe(false);
    const key = `${refused.resource}:${refused.id}:${refused.version}`;
    const sent = () => erp.requests.filter((r) => r.headers['idempotency-key'] === key).length;
    expect(sent()).toBe(1);
    expect(erp.stored.has(key)).toBe(false);

    retryJob(app.store, dead?.id ?? 0, supersedingKind);
    expect((await pass()).ok).toBe(true);
    expect(sent()).toBe(2);
    expect(erp.stored.has(key)).toBe(true);
    expect(countOpenDeadJobs(app.store, 'deliver.')).toBe(0);
  });

  it('backs off between tries and dead-letters a record after retry.maxAttempts', async () => {
    erp.script(...failWith503(1_000));
    await pass();
    const [first] = listStoredJobs(app.store, ['pending'], 1, 'deliver.');
    expect(first?.attempts).toBe(1);
    const requests = erp.requests.length;
    rig.clock.advance(1);
    await app.worker.runUntilEmpty();
    expect(erp.requests.length).toBe(requests);
    for (let pass = 0; pass < 6; pass++) {
      rig.clock.advance(60_000);
      await app.worker.runUntilEmpty();
    }
    const dead = listJobs(app.store, { dead: true }).filter((j) => j.kind.startsWith('deliver.'));
    expect(dead.length).toBeGreaterThan(0);
    expect(getJob(app.store, dead[0]?.id ?? 0)?.deadLetters[0]?.reason).toMatch(/after 6 tries/);
  });

  it('stores an inbound message before answering 202 and pushes it to the platform', async () => {
    const { startDaemon } = await import('../../../src/app/daemon.js');
    const daemon = await startDaemon(app);
    try {
      const order = (
        await api(sim, 'GET', '/singleOrder?status=transmitted&updatedAfter=1970-01-01T00:00:00Z', {
          key: 'demo-key-2',
        })
      ).json as Array<{ _id: string }>;
      const target = order[0];
      if (!target) throw new Error('the seed has no transmitted single order');
      const post = (body: unknown, token?: string) =>
        fetch(`${daemon.url}/erp/orderStatus`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
          body: JSON.stringify(body),
        });
      expect((await post({ orderType: 'single', id: target._id, status: 3 })).status).toBe(401);
      const bad = await post({ orderType: 'single', status: 3 }, 'inbound-secret-6d20f4b8');
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({
        problems: [expect.stringMatching(/^id: /) as unknown],
      });
      const good = await post(
        { orderType: 'single', id: target._id, status: 3, salesId: 'SO-REST-1' },
        'inbound-secret-6d20f4b8',
      );
      expect(good.status).toBe(202);
      expect(
        countJobs(app.store, 'pending') +
          countJobs(app.store, 'running') +
          countJobs(app.store, 'done'),
      ).toBeGreaterThan(0);
      // The status change is checked against the order as pulled: the daemon's first pull
      // brings it after the patients, articles and care arrangements it refers to.
      await vi.waitFor(
        () => expect(getMirror(app.store, 'singleOrder', target._id)).toBeDefined(),
        {
          timeout: 30_000,
        },
      );
      rig.clock.advance(60_000);
      await app.worker.runUntilEmpty();
      expect(await sim.control.getRecord('singleOrder', target._id)).toMatchObject({
        status: 3,
        salesId: 'SO-REST-1',
      });
    } finally {
      await daemon.stop();
    }
  });
});
