import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { daemonHealth } from '../../../src/app/daemonHealth.js';
import { publicReadiness } from '../../../src/http/readiness.js';
import type { HttpEndpoint } from '../../../src/http/server.js';
import { startTestEndpoint } from '../../support/endpoint.js';
import { countInboxMessages, ROOM_QUIET_MS } from '../../../src/store/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

/**
 * A full disk, made reproducible without filling one: SQLite's max_page_count stops the file
 * from growing, and a write that needs a new page fails with SQLITE_FULL as on a full disk.
 * (test/integration/cli/diskFull.test.ts does it with a real full file system, where it can mount one.)
 */
const START = '2026-03-01T08:00:00.000Z';
let sim: TestSimulator;
let rig: AppRig;
let app: App;

beforeEach(async () => {
  sim = await startTestSimulator({ variant: 'B', seed: 11 });
  rig = appRig(sim.url, 'B', START);
  app = await rig.open();
});
afterEach(async () => {
  await app.close();
  await sim.close();
  rig.cleanup();
});

const fullText = () =>
  `database ${app.store.path} cannot be written: the disk (or its quota) is full; free space there — homecare-sync keeps trying on its schedule and goes on by itself once there is room, nothing is lost`;
const diskFull = () => {
  const pages = Number(app.store.db.pragma('page_count', { simple: true }));
  app.store.db.pragma(`max_page_count = ${pages}`);
};
const spaceBack = () => void app.store.db.pragma('max_page_count = 1073741823');

const ledgerRows = () =>
  app.store.db.prepare('SELECT count(*) FROM ledger').pluck().get() as number;

/** An ERP message too big for the free room left in the database's pages. */
const bigStatus = {
  orderType: 'single',
  id: 'order-1',
  trackingInfo: Array.from({ length: 200 }, (_, i) => ({
    trackingLink: `https://track.example/${i}/${'x'.repeat(200)}`,
  })),
};

describe('a full disk under the database', () => {
  it('fails a pull with one clear error, moves no checkpoint, and the next pull takes it all', async () => {
    diskFull();
    const failed = await app.runner.runResource('patient').then(
      (summaries) => summaries?.map((s) => s.error).join('\n'),
      (error: unknown) => (error as Error).message,
    );
    expect(failed).toContain(fullText());
    expect(ledgerRows()).toBe(0);

    spaceBack();
    const summaries = await app.runner.runResource('patient');
    expect(summaries?.every((s) => s.ok)).toBe(true);
    expect(ledgerRows()).toBeGreaterThan(0);
  });

  it('holds the full disk as a readiness state until a write passes again', async () => {
    const health = daemonHealth(app, new Date(START));
    const storageCheck = () => health.ready().checks['storage'];
    expect(storageCheck()).toEqual({ ok: true });
    diskFull();
    await app.runner.runResource('patient');
    expect(app.store.room.fullSince).toBe(START);
    expect(storageCheck()).toEqual({ ok: false, problem: `since ${START}: ${fullText()}` });
    expect(health.inboundReady().checks['storage']?.ok).toBe(false);
    expect(publicReadiness(health.ready()).checks['storage']).toEqual({
      ok: false,
      problem: 'the disk is full',
    });

    spaceBack();
    expect(storageCheck()?.ok).toBe(false);
    // A commit right after the failure proves nothing: a small write fits into free pages.
    await app.runner.runResource('patient');
    expect(storageCheck()?.ok).toBe(false);
    rig.clock.advance(ROOM_QUIET_MS);
    await app.runner.runResource('patient');
    expect(app.store.room.fullSince).toBeUndefined();
    expect(storageCheck()).toEqual({ ok: true });
  });

  it('keeps an inbox file in .processing, and accepts it at the next scan once there is room', async () => {
    const inbox = app.inbox;
    if (!inbox) throw new Error('the rig has a file inbox');
    rig.drop('orderStatus', 'big.json', bigStatus);
    diskFull();
    const first = await inbox.scanOnce();
    expect(first.counts.failed).toBe(1);
    expect(first.files[0]).toMatchObject({ status: 'failed' });
    expect(JSON.stringify(first.files[0])).toContain(fullText());
    expect(countInboxMessages(app.store)).toEqual({});

    spaceBack();
    const second = await inbox.scanOnce();
    expect(second.counts.accepted).toBe(1);
  });

  it('answers an ERP POST with 503 and Retry-After, and takes it when sent again with room', async () => {
    // Only the inbound route is under test here.
    const endpoint: HttpEndpoint = await startTestEndpoint(
      { token: 'tok', bodyLimitBytes: 1_000_000 },
      { logger: app.logger, inbound: app.inbound },
    );
    const post = () =>
      fetch(`${endpoint.url}/erp/orderStatus`, {
        method: 'POST',
        headers: {
          authorization: 'Bearer tok',
          'content-type': 'application/json',
          'idempotency-key': 'erp-1',
        },
        body: JSON.stringify(bigStatus),
      });
    try {
      diskFull();
      const refused = await post();
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('60');
      expect(await refused.json()).toEqual({ error: 'Service Unavailable', message: fullText() });

      spaceBack();
      const accepted = await post();
      expect(accepted.status).toBe(202);
    } finally {
      await endpoint.close();
    }
  });
});
