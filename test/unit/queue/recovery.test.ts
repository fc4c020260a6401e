import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, type Job } from '../../../src/queue/index.js';
import { claimJob, getStoredJob } from '../../../src/store/index.js';
import { queueHarness, states, type QueueHarness } from '../../support/queue/queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe('recovery after a crash', () => {
  it('puts jobs a dead process left running back to pending, attempts unchanged, and runs them', async () => {
    const first = { kind: 'orderStatus' as const, entityKey: 'singleOrder:o-1', payload: { n: 1 } };
    enqueue(h.store, first);
    enqueue(h.store, { ...first, payload: { n: 2 } });
    h.store.db.prepare('UPDATE queue SET attempts = 2 WHERE id = 1').run();
    // The crashed process had claimed job 1 and died before recording its outcome.
    expect(claimJob(h.store, 1, '2026-01-15T08:10:00.000Z')).toBeDefined();
    h.store.close();

    const reopened = h.openStore();
    const ran: Job[] = [];
    const worker = h.worker(
      {
        orderStatus: (job) => {
          ran.push(job);
          return Promise.resolve();
        },
      },
      { store: reopened },
    );
    // While job 1 counts as running, its entity's next job must wait.
    expect(await worker.runOnce()).toBe(0);

    expect(worker.recover()).toEqual([1]);
    expect(getStoredJob(reopened, 1)).toMatchObject({
      state: 'pending',
      attempts: 2,
      leaseUntil: undefined,
    });
    expect(await worker.runUntilEmpty()).toEqual({ ran: 2, waiting: 0 });
    expect(ran.map((job) => [job.id, job.attempts])).toEqual([
      [1, 2],
      [2, 0],
    ]);
    expect(states(reopened)).toEqual({ 1: 'done', 2: 'done' });
    expect(
      h.logs.some((log) => log.level === 'warn' && String(log.msg).includes('left running')),
    ).toBe(true);
  });

  it('leaves the jobs it is running itself alone', async () => {
    enqueue(h.store, { kind: 'orderStatus', entityKey: 'singleOrder:o-1', payload: {} });
    let recovered: number[] | undefined;
    const worker = h.worker({
      orderStatus: () => {
        recovered = worker.recover();
        return Promise.resolve();
      },
    });
    await worker.runUntilEmpty();
    expect(recovered).toEqual([]);
    expect(states(h.store)).toEqual({ 1: 'done' });
  });
});
