import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { checkRecord, entitySchema } from '../../../src/contract/index.js';
import { recordBaseName } from '../../../src/erp/outbound/file/index.js';
import { createQueueWorker, listJobs, retryJob } from '../../../src/queue/index.js';
import { supersedingKind } from '../../../src/pushback/index.js';
import { countJobs, countUndelivered } from '../../../src/store/index.js';
import { deliveryHandlers } from '../../../src/deliver/deliver.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

let sim: TestSimulator | undefined;
let rig: AppRig | undefined;
let app: App | undefined;
let restarted: App | undefined;

afterEach(async () => {
  await restarted?.close();
  restarted = undefined;
  await app?.close();
  await sim?.close();
  rig?.cleanup();
  app = undefined;
  sim = undefined;
  rig = undefined;
});

async function start(articles: number, format: 'json' | 'csv') {
  const simClock = new FakeClock(START);
  sim = await startTestSimulator({ variant: 'B', clock: simClock, seed: 5, sizes: { articles } });
  rig = appRig(sim.url, 'B', START);
  const config = parse(readFileSync(rig.configPath, 'utf8')) as { erp: { file: object } };
  config.erp.file = { ...config.erp.file, format };
  writeFileSync(rig.configPath, stringify(config));
  app = await rig.open();
  const elapse = (ms: number) => {
    simClock.advance(ms);
    rig?.clock.advance(ms);
  };
  return { sim, rig, app, elapse };
}

/** The article versions the simulator holds, named as the daemon names them. */
function seededArticles(simulator: TestSimulator): { id: string; version: string }[] {
  const rows = [...simulator.state.store.list('demo', 'article', [{}], {})];
  return rows.flatMap((text) => {
    const check = checkRecord('article', entitySchema('article'), JSON.parse(text));
    return check.ok ? [{ id: check.id, version: check.version }] : [];
  });
}

describe('ERP delivery as queue jobs', () => {
  it('hands a good order to the ERP though 1,000 refused versions are ahead of it', async () => {
    const { sim, rig, app, elapse } = await start(1_000, 'json');
    // The outbox already holds other files under every article version's name: each refused.
    const articles = seededArticles(sim);
    expect(articles).toHaveLength(1_000);
    const folder = join(rig.outbox, 'article');
    mkdirSync(folder, { recursive: true });
    for (const { id, version } of articles) {
      writeFileSync(join(folder, `${recordBaseName(id, version)}.json`), 'not this record');
    }

    const first = await syncOnce(app, ['article']);
    expect(first.ok).toBe(false);
    expect(first.delivery).toMatchObject({ delivered: 0, refused: 1_000, undelivered: 0 });

    elapse(60_000);
    const second = await syncOnce(app, ['patient', 'integratedCare', 'singleOrder']);
    const pulledOrders = second.pulls
      .filter((pull) => pull.resource === 'singleOrder')
      .reduce((n, pull) => n + pull.fresh, 0);
    expect(pulledOrders).toBeGreaterThan(0);
    expect(rig.outboxFiles('singleOrder')).toHaveLength(pulledOrders);
    expect(second.ok).toBe(false);
    expect(second.delivery).toMatchObject({ refused: 1_000, undelivered: 0 });

    const dead = listJobs(app.store, { dead: true });
    expect(dead).toHaveLength(1_000);
    expect(dead[0]?.lastError).toMatch(/already exists with other content/);
    const { id, version } = dead[0]?.payload as { id: string; version: string };
    const name = `${recordBaseName(id, version)}.json`;
    rmSync(join(folder, name));
    retryJob(app.store, dead[0]?.id ?? 0, supersedingKind);
    await app.worker.runUntilEmpty();
    expect(JSON.parse(readFileSync(join(folder, name), 'utf8'))).toMatchObject({ _id: id });
    expect(countUndelivered(app.store)).toBe(999);
  });

  it('hands 30,000 articles over in csv, every one once, one file per batch', async () => {
    const { sim, rig, app } = await start(30_000, 'csv');
    const articles = seededArticles(sim);

    const report = await syncOnce(app, ['article']);
    expect(report.delivery).toEqual({ delivered: 30_000, undelivered: 0, refused: 0 });
    expect(report.ok).toBe(true);
    expect(countUndelivered(app.store)).toBe(0);

    const files = rig.outboxFiles('article');
    const batchSize = app.config.sync.batchSize;
    expect(files).toHaveLength(Math.ceil(30_000 / batchSize));
    for (const file of files) expect(file).toMatch(/^article_\d{10}\.csv$/);
    const seen = new Map(articles.map((a) => [a.id, 0]));
    for (const file of files) {
      const text = readFileSync(join(rig.outbox, 'article', file), 'utf8');
      let inFile = 0;
      for (const [match] of text.matchAll(UUID)) {
        const count = seen.get(match);
        if (count === undefined) continue;
        seen.set(match, count + 1);
        inFile += 1;
      }
      expect(inFile).toBeLessThanOrEqual(batchSize);
    }
    expect([...seen.values()].filter((count) => count !== 1)).toEqual([]);
  }, 180_000);

  it('hands a batch the process died in over again under its number, so the ERP gets one file', async () => {
    const { rig, app } = await start(40, 'csv');
    await app.runner.runAll(['article']);
    // A worker that dies once the ERP has the batch file, before the jobs are marked done.
    const handler = deliveryHandlers({
      store: app.store,
      adapter: app.adapter,
      contract: app.contract,
      logger: app.logger,
      fetchReferences: () => Promise.resolve(new Map()),
      filesOf: () => Promise.resolve(undefined),
      batchSize: app.config.sync.batchSize,
    })['deliver.article'];
    if (typeof handler !== 'object') throw new Error('csv hands over batches');
    let written: () => void = () => undefined;
    const fileWritten = new Promise<void>((resolve) => (written = resolve));
    const dying = createQueueWorker({
      store: app.store,
      handlers: {
        'deliver.article': {
          maxJobs: handler.maxJobs,
          async run(jobs, batch, context) {
            await handler.run(jobs, batch, context);
            written();
            return new Promise(() => undefined);
          },
        },
      },
      context: {
        client: app.client,
        store: app.store,
        contract: app.contract,
        clock: app.clock,
        logger: app.logger,
      },
      clock: app.clock,
      logger: app.logger,
      concurrency: 1,
      retry: app.config.retry,
    });
    void dying.runOnce();
    await fileWritten;
    const [file] = rig.outboxFiles('article');
    expect(countJobs(app.store, 'running', 'deliver.')).toBe(40);

    restarted = await rig.open();
    expect(restarted.worker.recover()).toHaveLength(40);
    await restarted.worker.runUntilEmpty();
    expect(rig.outboxFiles('article')).toEqual([file]);
    expect(countUndelivered(restarted.store)).toBe(0);
    expect(countJobs(restarted.store, 'done', 'deliver.')).toBe(40);
  });
});
