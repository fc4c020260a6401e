import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue } from '../../src/queue/index.js';
import { WAL_AUTOCHECKPOINT_PAGES } from '../../src/store/index.js';
import { queueHarness, states, type QueueHarness } from './queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

/** Resolves once `check` holds, looking after each turn of the event loop; fails after 10 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  const give = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > give) throw new Error(`${what} did not happen within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('the write-ahead log is copied into the database when the queue is idle (issue 10)', () => {
  it('opens the store with a write-ahead log of WAL_AUTOCHECKPOINT_PAGES, not 1,000', () => {
    expect(h.store.db.pragma('wal_autocheckpoint', { simple: true })).toBe(
      WAL_AUTOCHECKPOINT_PAGES,
    );
    expect(h.store.db.pragma('synchronous', { simple: true })).toBe(2); // FULL
  });

  it('copies the log once the started worker has nothing left to run', async () => {
    const file = `${h.folder}/homecare-sync.db`;
    const before = fs.statSync(file).size;
    // About 2 MB of jobs: far below SQLite's own mark (1,000 pages, about 4 MB), so only the
    // worker's idle checkpoint brings them into the database file.
    const filler = 'x'.repeat(20_000);
    const ids = Array.from(
      { length: 100 },
      (_, n) =>
        enqueue(h.store, { kind: 'ack.singleOrder', entityKey: `o:${n}`, payload: { filler } }).id,
    );
    const worker = h.worker({ 'ack.singleOrder': () => Promise.resolve() });
    worker.start(60_000);
    await until(() => ids.every((id) => states(h.store)[id] === 'done'), 'running the jobs');

    await until(() => fs.statSync(file).size > before + 2_000_000, 'the idle checkpoint');
    await worker.stop();
  });
});
