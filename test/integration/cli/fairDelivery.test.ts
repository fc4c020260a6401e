import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { eventually, withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';
import { api, type TestSimulator } from '../../support/simulator.js';

/** Where an endless article list is cut: the backlog of hand-overs a first pull leaves. */
const ARTICLES = 30_000;

const backlogRig = useDaemonRig({
  simulator: { seed: 8 },
  config: {
    sync: {
      jitterSeconds: 0,
      resources: {
        singleOrder: { schedule: '* * * * * *', statuses: ['created'] },
        article: { maxRecords: ARTICLES, statuses: ['created'] },
      },
    },
  },
});

function filesIn(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => !name.startsWith('.'));
  } catch {
    return [];
  }
}

/** A new created single order on the seed's patient and care arrangement; its _id. */
async function newOrder(sim: TestSimulator): Promise<string> {
  const listed = await api(
    sim,
    'GET',
    '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
    { key: 'demo-key-2' },
  );
  const [seeded] = listed.json as Record<string, unknown>[];
  const { patientId, integratedCareId, orderedArticleLines } = seeded ?? {};
  const order = await sim.control.createRecord('singleOrder', {
    status: 0,
    patientId,
    integratedCareId,
    orderedArticleLines,
  });
  return String(order['_id']);
}

describe('fair delivery (issue 37.2)', () => {
  it("a backlog of one resource's hand-overs holds no order: a new order reaches the ERP while thousands of articles still wait", async () => {
    const { sim, f, start } = backlogRig();
    // Each article list streams its records again and again: cut at the bound, a first pull's
    // worth of hand-overs is queued at once.
    await sim.control.setFault({ path: '/article', endless: true });
    const daemon = start();
    await daemon.waitForLog('homecare-sync started');
    const articles = join(f.outbox, 'article');
    // The whole backlog queued: the list was cut at its bound, every hand-over of it waits.
    await eventually('the article list cut at its bound', () =>
      daemon.stdout().includes('"msg":"pull of article?status=created failed: '),
    );

    const id = await newOrder(sim);
    const orders = join(f.outbox, 'singleOrder');
    await eventually('the new order in the outbox', () =>
      filesIn(orders).some((name) => name.startsWith(id)),
    );
    const handed = filesIn(articles).length;
    expect(handed).toBeLessThan(ARTICLES - 5_000);
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to stop')).toBe(0);
  }, 120_000);
});

describe("fair delivery at a daemon's first start (issue 37.2)", () => {
  const firstRig = useDaemonRig({
    simulator: { seed: 8 },
    config: {
      sync: {
        jitterSeconds: 0,
        resources: { singleOrder: { schedule: '* * * * * *', statuses: ['created'] } },
      },
    },
  });

  it("a catalogue's first pull still under way holds no order: the order reaches the ERP while the article list runs", async () => {
    const { sim, f, start } = firstRig();
    // Long enough a wait between the slow list's pieces.
    const config = parse(readFileSync(f.configPath, 'utf8')) as Record<string, object>;
    config['platform'] = { ...config['platform'], timeoutMs: 60_000 };
    writeFileSync(f.configPath, stringify(config), { mode: 0o600 });
    // The article list's body comes in ten pieces over ten minutes: its first pull runs on.
    await sim.control.setFault({
      path: '/article',
      withQuery: 'updatedAfter',
      slowBodyMs: 600_000,
    });
    const daemon = start();
    await daemon.waitForLog('homecare-sync started');
    const id = await newOrder(sim);
    await eventually('the new order in the outbox', () =>
      filesIn(join(f.outbox, 'singleOrder')).some((name) => name.startsWith(id)),
    );
    // The catalogue's list is still under way: its pull has not ended.
    const articleLines = daemon.lines().filter((line) => line['resource'] === 'article');
    expect(articleLines).toEqual([]);
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to stop')).toBe(0);
  }, 60_000);
});
