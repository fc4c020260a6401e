import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  addDeadLetter,
  claimJob,
  completeJob,
  insertJob,
  markDead,
  markDelivered,
  recordVersion,
  type Store,
} from '../../../src/store/index.js';
import { pruneStore } from '../../../src/housekeeping/index.js';
import { tempStores, type TempStores, RETENTION_DAYS } from '../../support/store/tempStore.js';

const DAY = 86_400_000;
const CHILD = fileURLToPath(new URL('../../support/store/pruneChild.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

let temp: TempStores;
let store: Store;
beforeEach(() => {
  temp = tempStores();
  store = temp.open();
});
afterEach(() => temp.cleanup());

/** Prunes in a child process and kills it -9 once it said `mid`; resolves with what it said. */
function pruneAndKill(file: string, now: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(TSX, [CHILD, file, now], { stdio: ['ignore', 'pipe', 'inherit'] });
    let said = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      said += chunk;
      if (said.includes('mid')) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', () => resolve(said));
  });
}

/** Many rows to prune, and the unresolved work that must survive every batch. */
function seed(): { open: number[] } {
  const open: number[] = [];
  for (let n = 0; n < 150; n += 1) {
    const id = insertJob(store, {
      kind: 'k',
      entityKey: `e-${n}`,
      payload: {},
      supersedes: false,
    }).id;
    claimJob(store, id, '2099-01-01T00:00:00.000Z');
    if (n % 10 === 0) {
      markDead(store, id, { attempts: 1, error: 'x', status: 422 });
      addDeadLetter(store, id, { reason: 'x' });
      open.push(id);
    } else completeJob(store, id);
    recordVersion(store, 'article', `a-${n % 20}`, `v${n}`);
    markDelivered(store, 'article', `a-${n % 20}`, `v${n}`);
  }
  open.push(
    insertJob(store, { kind: 'k', entityKey: 'e-last', payload: {}, supersedes: false }).id,
  );
  return { open };
}

function invariants(): { jobs: number[]; newestVersions: number } {
  return {
    jobs: store.db
      .prepare("SELECT id FROM queue WHERE state IN ('pending', 'dead') ORDER BY id")
      .pluck()
      .all() as number[],
    newestVersions: store.db
      .prepare('SELECT count(DISTINCT _id) FROM ledger')
      .pluck()
      .get() as number,
  };
}

describe('pruning killed -9 between its batches', () => {
  it('loses no unresolved row and goes on where it stopped at the next pass', async () => {
    const { open } = seed();
    store.close();
    const now = new Date(temp.clock.now().getTime() + 31 * DAY).toISOString();

    const said = await pruneAndKill(path.join(temp.folder, 'homecare-sync.db'), now);
    expect(said).toContain('mid');
    expect(said).not.toContain('through');

    store = temp.open();
    expect(store.db.pragma('integrity_check', { simple: true })).toBe('ok');
    const left = store.db.prepare('SELECT count(*) FROM queue').pluck().get() as number;
    expect(left).toBeGreaterThan(open.length);
    expect(left).toBeLessThan(151);
    expect(invariants()).toEqual({ jobs: open, newestVersions: 20 });

    temp.clock.set(now);
    await pruneStore(store, RETENTION_DAYS, { batchSize: 50 });
    expect(store.db.prepare('SELECT count(*) FROM queue').pluck().get()).toBe(open.length);
    expect(store.db.prepare('SELECT count(*) FROM ledger').pluck().get()).toBe(20);
    expect(invariants()).toEqual({ jobs: open, newestVersions: 20 });
  });
});
