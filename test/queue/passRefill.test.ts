import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, type Handler } from '../../src/queue/index.js';
import { GROUP_MAX_WAIT_MS } from '../../src/queue/outcomeGroup.js';
import { deferred, queueHarness, states, within, type QueueHarness } from './queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

/** Longer than any pass here takes; a test that waits this long has failed. */
const BOUND_MS = 10_000;

function queueAck(order: string): number {
  return enqueue(h.store, {
    kind: 'ack.singleOrder',
    entityKey: `singleOrder:${order}`,
    payload: { id: order },
  }).id;
}

/**
 * A handler that holds the job of order `slow` until the test's `release`, and notes every
 * other job as done (`ended`).
 */
function holding(slow: string) {
  const started = deferred();
  const release = deferred();
  const ended = new Map<number, () => void>();
  const endedPromise = (id: number) => new Promise<void>((resolve) => ended.set(id, resolve));
  const handler: Handler = async (job) => {
    if (job.payload['id'] === slow) {
      started.resolve();
      await release.promise;
      return;
    }
    ended.get(job.id)?.();
  };
  return { handler, started, release, endedPromise };
}

describe('a started channel takes jobs that become ready while its pass runs (issue 10)', () => {
  it('runs a job queued while a slow one runs, on a free lane, before the slow one ends', async () => {
    const slow = holding('slow');
    queueAck('slow');
    const worker = h.worker({ 'ack.singleOrder': slow.handler });
    worker.start(60_000);
    try {
      await within(slow.started.promise, BOUND_MS, 'the slow job');
      const later = queueAck('later');
      const ran = slow.endedPromise(later);
      await within(ran, BOUND_MS, 'the job queued while the slow one ran');
      expect(states(h.store)[1]).toBe('running');
    } finally {
      slow.release.resolve();
    }
    await worker.stop();
  });

  it('runs the next job of an entity once the first is done, while a slow one still runs', async () => {
    const slow = holding('slow');
    queueAck('slow');
    const first = queueAck('chain');
    const second = queueAck('chain');
    const ranFirst = slow.endedPromise(first);
    const ranSecond = slow.endedPromise(second);
    const worker = h.worker({ 'ack.singleOrder': slow.handler });
    worker.start(60_000);
    try {
      // The second is not ready when the pass begins (the first of its order is pending); it
      // is once the first's outcome is committed: at the group commit's longest wait.
      await within(ranFirst, BOUND_MS, 'the first job of the chain');
      h.clock.advance(GROUP_MAX_WAIT_MS);
      await within(ranSecond, BOUND_MS, 'the second job of the chain');
      expect(states(h.store)).toMatchObject({ 1: 'running', [first]: 'done' });
    } finally {
      slow.release.resolve();
    }
    await worker.stop();
    expect(states(h.store)).toEqual({ 1: 'done', [first]: 'done', [second]: 'done' });
  });
});
