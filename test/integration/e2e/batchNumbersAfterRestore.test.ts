import { copyFileSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { backupStore } from '../../../src/housekeeping/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';

let sim: TestSimulator | undefined;
let rig: AppRig | undefined;
let app: App | undefined;

afterEach(async () => {
  await app?.close();
  await sim?.close();
  rig?.cleanup();
  app = sim = rig = undefined;
});

/** Every batch file of the outbox (any resource), by name; the `.done` markers left out. */
function batchFiles(outbox: string): string[] {
  return readdirSync(outbox, { recursive: true, encoding: 'utf8' })
    .filter((name) => /_\d{10}\.ndjson$/.test(name))
    .sort();
}

const numberOf = (name: string): number => Number(/_(\d{10})\.ndjson$/.exec(name)?.[1]);

/** One `sync` pass of the named resources with a freshly opened app, closed after. */
async function syncWith(the: AppRig, resources: Parameters<typeof syncOnce>[1]): Promise<void> {
  app = await the.open();
  const report = await syncOnce(app, resources);
  expect(report.delivery.undelivered).toBe(0);
  await app.close();
  app = undefined;
}

describe('batch numbers after a restored backup', () => {
  it('number the next batch files above every file the outbox holds, so they sort after them', async () => {
    sim = await startTestSimulator({ variant: 'B', seed: 3 });
    rig = appRig(sim.url, 'B', START, {}, { format: 'ndjson' });
    const backup = join(rig.folder, 'backup.db');
    const database = join(rig.folder, 'sync.db');

    // The backup is taken after the articles went out; the patients go out after it.
    app = await rig.open();
    await syncOnce(app, ['article']);
    await backupStore(app.store, backup);
    await app.close();
    app = undefined;
    await syncWith(rig, ['patient']);
    const before = batchFiles(rig.outbox);
    expect(before.some((name) => name.startsWith('patient/'))).toBe(true);
    const highest = Math.max(...before.map(numberOf));

    // Restore as the runbook says: the backup in place, the old WAL and shared memory gone.
    expect(app).toBeUndefined();
    for (const suffix of ['-wal', '-shm']) rmSync(`${database}${suffix}`, { force: true });
    copyFileSync(backup, database);

    // The restored database does not know the patients went out: they go again, in new batches.
    await syncWith(rig, ['patient']);
    const after = batchFiles(rig.outbox);
    const added = after.filter((name) => !before.includes(name));
    expect(added.length).toBeGreaterThan(0);
    for (const name of added) expect(numberOf(name)).toBeGreaterThan(highest);
    // In the patients' folder, as the ERP lists it: the old files first, then the new ones.
    const patients = after.filter((name) => name.startsWith('patient/'));
    const old = before.filter((name) => name.startsWith('patient/'));
    expect(patients.slice(0, old.length)).toEqual(old);
    expect(patients.slice(old.length)).toEqual(added.filter((name) => name.startsWith('patient/')));
  });
});
