import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, type BatchHandler, type Job } from '../../../src/queue/index.js';
import { PermanentError, TransientError } from '../../../src/shared/errors.js';
import { deadLettersOf, getStoredJob } from '../../../src/store/index.js';
import { queueHarness, states, type QueueHarness } from '../../support/queue/queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const queueArticle = (id: string) =>
  enqueue(h.store, {
    kind: 'deliver.article',
    entityKey: `article:${id}`,
    payload: { resource: 'article', id, version: 'v1' },
    idempotencyKey: `article:${id}:v1`,
  }).id;

describe('batch kinds', () => {
  it('hand the ready jobs of a kind over together, at most maxJobs, and settle each by its own result', async () => {
    for (const id of ['a', 'b', 'c', 'd', 'e']) queueArticle(id);
    // A later version of `a` waits behind the first, so it is in no batch of this pass.
    const later = enqueue(h.store, {
      kind: 'deliver.article',
      entityKey: 'article:a',
      payload: { resource: 'article', id: 'a', version: 'v2' },
    }).id;
    const calls: { ids: number[]; batch: number }[] = [];
    const completed: number[] = [];
    const handler: BatchHandler = {
      maxJobs: 3,
      run(jobs: readonly Job[], batch: number) {
        calls.push({ ids: jobs.map((job) => job.id), batch });
        return Promise.resolve(
          jobs.map((job) => {
            if (job.payload['id'] === 'b') return { ok: false, error: new TransientError('busy') };
            if (job.payload['id'] === 'c') {
              return { ok: false, error: new PermanentError('refused', { status: 422 }) };
            }
            return { ok: true, complete: () => void completed.push(job.id) };
          }),
        );
      },
    };
    const worker = h.worker({ 'deliver.article': handler }, { concurrency: 1 });

    expect(await worker.runOnce()).toBe(5);
    expect(calls).toEqual([
      { ids: [1, 2, 3], batch: 1 },
      { ids: [4, 5], batch: 2 },
    ]);
    expect(completed).toEqual([1, 4, 5]);
    expect(states(h.store)).toEqual({
      1: 'done',
      2: 'pending',
      3: 'dead',
      4: 'done',
      5: 'done',
      [later]: 'pending',
    });
    expect(getStoredJob(h.store, 2)).toMatchObject({ attempts: 1, batch: undefined });
    expect(deadLettersOf(h.store, 3)[0]).toMatchObject({ reason: 'refused', httpStatus: 422 });

    await worker.runOnce();
    expect(calls[2]).toEqual({ ids: [later], batch: 3 });
  });
});
