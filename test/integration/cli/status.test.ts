import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/shared/clock.js';
import {
  addDeadLetter,
  claimJob,
  insertJob,
  markDead,
  openStore,
  resolveDeadLetters,
  type Store,
} from '../../../src/store/index.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';
import { cliFolder, SIM_KEYS, type CliFolder } from '../../support/cli/cliFolder.js';

let sim: TestSimulator;
let f: CliFolder;

beforeAll(async () => {
  sim = await startTestSimulator({ keys: SIM_KEYS, seed: 7 });
  f = cliFolder(sim.url);
  const synced = await f.cli('sync');
  if (synced.code !== 0) throw new Error(`sync failed:\n${synced.stderr}`);
}, 60_000);
afterAll(async () => {
  await sim.close();
  f.cleanup();
});

function withDatabase<T>(work: (store: Store) => T): T {
  const store = openStore({ path: f.database, clock: systemClock });
  try {
    return work(store);
  } finally {
    store.close();
  }
}

/** A job the ERP's answer made dead, with its open dead letter. */
function deadJob(store: Store, key: string): number {
  const { id } = insertJob(store, {
    kind: 'orderStatus',
    entityKey: key,
    payload: {},
    supersedes: false,
  });
  claimJob(store, id, '2099-01-01T00:00:00.000Z');
  markDead(store, id, { attempts: 1, error: 'refused', status: 422 });
  addDeadLetter(store, id, { reason: 'refused', httpStatus: 422 });
  return id;
}

interface StatusJson {
  storage: {
    databaseBytes: number;
    archiveBytes: number;
    rows: Record<string, number>;
    oldest: Record<string, string | undefined>;
  };
}

describe('status', () => {
  it('says what dead jobs mean: which need the operator and which were dropped', async () => {
    withDatabase((store) => {
      deadJob(store, 'singleOrder:o-open');
      const dropped = deadJob(store, 'singleOrder:o-dropped');
      resolveDeadLetters(store, dropped, 'dropped');
    });
    const status = await f.cli('status');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(
      'queue: 0 pending, 0 running, 2 dead: 1 open (needs you: queue list --dead, then queue retry or queue drop), 1 dropped (kept for the trace until retention.jobs)\n',
    );
  });

  it('has a storage section: the files, the inbox archive, rows per table, the oldest kept item', async () => {
    const day = join(f.folder, 'erp', 'inbox', '.archive', 'orderStatus', '2026-03-01');
    mkdirSync(day, { recursive: true });
    writeFileSync(join(day, 'a.json'), 'x'.repeat(2048));

    const json = await f.cli('status', '--json');
    expect(json.code).toBe(0);
    const { storage } = JSON.parse(json.stdout) as StatusJson;
    expect(storage.databaseBytes).toBe(statSync(f.database).size);
    expect(storage.archiveBytes).toBe(2048);
    const mirrored = withDatabase(
      (store) => store.db.prepare('SELECT count(*) FROM mirror').pluck().get() as number,
    );
    expect(storage.rows['mirror']).toBe(mirrored);
    expect(storage.oldest['runs']).toMatch(/^\d{4}-\d\d-\d\dT/);

    const text = await f.cli('status');
    expect(text.stdout).toMatch(
      /^storage: database \d+\.\d [KM]iB \(.+ free inside, auto-vacuum incremental\), WAL .+, inbox archive 2\.0 KiB$/m,
    );
    expect(text.stdout).toMatch(new RegExp(`^ {2}rows: .*mirror ${mirrored}`, 'm'));
    expect(text.stdout).toMatch(/^ {2}oldest kept \(retention\): .*runs \d{4}-/m);
  });
});
