import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { STORAGE_FIGURES_TTL_MS } from '../../../src/readModels/index.js';
import { appRig, registryOf, type AppRig } from '../../support/appRig.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

let sim: TestSimulator;
let rig: AppRig;
let app: App;

beforeAll(async () => {
  sim = await startTestSimulator();
  rig = appRig(sim.url, 'B', '2026-03-01T08:00:00.000Z', { http: { enabled: true, port: 0 } });
  app = await rig.open();
  await app.runner.runAll();
});
afterAll(async () => {
  await app.close();
  await sim.close();
  rig.cleanup();
});

/** The value of one series of the scrape, as a number; undefined when it is not there. */
async function series(name: string, labels: string): Promise<number | undefined> {
  const text = await registryOf(app).metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name}{${labels}} `));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

const archiveDay = () => join(rig.inbox, '.archive', 'orderStatus', '2026-03-01');

describe('the storage gauges of /metrics', () => {
  it('show the database, WAL and archive bytes, rows per table and the oldest kept item', async () => {
    mkdirSync(archiveDay(), { recursive: true });
    writeFileSync(join(archiveDay(), 'a.json'), 'x'.repeat(1000));
    rig.clock.advance(STORAGE_FIGURES_TTL_MS);

    expect(await series('homecare_sync_storage_bytes', 'file="database"')).toBe(
      statSync(app.store.path).size,
    );
    expect(await series('homecare_sync_storage_bytes', 'file="wal"')).toBe(
      statSync(`${app.store.path}-wal`).size,
    );
    expect(await series('homecare_sync_storage_bytes', 'file="archive"')).toBe(1000);
    const mirrored = app.store.db.prepare('SELECT count(*) FROM mirror').pluck().get() as number;
    expect(mirrored).toBeGreaterThan(0);
    expect(await series('homecare_sync_table_rows', 'table="mirror"')).toBe(mirrored);
    // The runs of the pull above, started at the fake clock's time; the clock moved on since.
    expect(await series('homecare_sync_oldest_retained_age_seconds', 'item="runs"')).toBe(
      STORAGE_FIGURES_TTL_MS / 1000,
    );
    // No own write yet: no series rather than a made-up age.
    expect(await series('homecare_sync_oldest_retained_age_seconds', 'item="ownWrites"')).toBe(
      undefined,
    );
  });

  it('are read at most once a minute of the clock, however often Prometheus scrapes', async () => {
    rig.clock.advance(STORAGE_FIGURES_TTL_MS);
    expect(await series('homecare_sync_storage_bytes', 'file="archive"')).toBe(1000);
    writeFileSync(join(archiveDay(), 'b.json'), 'y'.repeat(500));
    rig.clock.advance(STORAGE_FIGURES_TTL_MS - 1);
    expect(await series('homecare_sync_storage_bytes', 'file="archive"')).toBe(1000);
    rig.clock.advance(1);
    expect(await series('homecare_sync_storage_bytes', 'file="archive"')).toBe(1500);
  });
});
