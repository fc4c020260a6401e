import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, type Handler, type Job } from '../../../src/queue/index.js';
import { TransientError } from '../../../src/shared/errors.js';
import {
  deferred,
  queueHarness,
  states,
  within,
  type QueueHarness,
} from '../../support/queue/queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

describe('FIFO per entity, parallel across entities', () => {
  it('runs one key’s jobs one at a time in id order while four keys run at once', async () => {
    const keys = ['o-1', 'o-2', 'o-3', 'o-4', 'o-5', 'o-6'];
    // One key's jobs side by side: a worker that took ready jobs by id alone would overlap them.
    for (const key of keys) {
      for (let step = 0; step < 3; step += 1) {
        enqueue(h.store, {
          kind: 'orderStatus',
          entityKey: `singleOrder:${key}`,
          payload: { id: key, step },
        });
      }
    }
    const events: { job: Job; event: 'start' | 'end' }[] = [];
    let active = 0;
    let mostActive = 0;
    // The first four jobs wait until four run together: with fewer lanes the test would hang.
    const four = deferred();
    const handler: Handler = async (job) => {
      events.push({ job, event: 'start' });
      active += 1;
      mostActive = Math.max(mostActive, active);
      if (active === 4) four.resolve();
      await four.promise;
      await new Promise((resolve) => setImmediate(resolve));
      active -= 1;
      events.push({ job, event: 'end' });
    };
    const worker = h.worker({ orderStatus: handler }, { concurrency: 4 });

    const result = await within(worker.runUntilEmpty(), 10_000, 'runUntilEmpty');

    expect(result).toEqual({ ran: 18, waiting: 0 });
    expect(mostActive).toBe(4);
    for (const key of keys) {
      const ofKey = events.filter((e) => e.job.entityKey === `singleOrder:${key}`);
      // start, end, start, end, …: never two of one key at once, and in the order queued.
      expect(ofKey.map((e) => e.event)).toEqual(['start', 'end', 'start', 'end', 'start', 'end']);
      expect(ofKey.filter((e) => e.event === 'start').map((e) => e.job.payload['step'])).toEqual([
        0, 1, 2,
      ]);
      const ids = ofKey.map((e) => e.job.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    }
    expect(new Set(Object.values(states(h.store)))).toEqual(new Set(['done']));
  });

  it('holds a key’s later jobs back while its first waits for a retry; other keys go on', async () => {
    enqueue(h.store, { kind: 'orderStatus', entityKey: 'singleOrder:a', payload: { n: 1 } });
    enqueue(h.store, { kind: 'orderStatus', entityKey: 'singleOrder:a', payload: { n: 2 } });
    enqueue(h.store, { kind: 'orderStatus', entityKey: 'singleOrder:b', payload: { n: 3 } });
    const ran: number[] = [];
    let failFirst = true;
    const worker = h.worker({
      orderStatus: (job) => {
        ran.push(job.id);
        if (job.id === 1 && failFirst) {
          failFirst = false;
          return Promise.reject(new TransientError('platform busy (singleOrder a)'));
        }
        return Promise.resolve();
      },
    });

    expect(await worker.runUntilEmpty()).toEqual({ ran: 2, waiting: 2 });
    expect(states(h.store)).toEqual({ 1: 'pending', 2: 'pending', 3: 'done' });

    h.clock.advance(60_000);
    expect(await worker.runUntilEmpty()).toEqual({ ran: 2, waiting: 0 });
    expect(ran).toEqual([1, 3, 1, 2]);
  });
});

describe('start and stop', () => {
  it('stop() waits for the running job, claims no more, and leaves nothing running', async () => {
    enqueue(h.store, { kind: 'orderStatus', entityKey: 'singleOrder:a', payload: {} });
    enqueue(h.store, { kind: 'orderStatus', entityKey: 'singleOrder:b', payload: {} });
    const started = deferred();
    const release = deferred();
    let finished = false;
    const worker = h.worker(
      {
        orderStatus: async () => {
          started.resolve();
          await release.promise;
          finished = true;
        },
      },
      { concurrency: 1 },
    );

    worker.start(5);
    await within(started.promise, 10_000, 'the first job');
    const stopped = worker.stop();
    release.resolve();
    await within(stopped, 10_000, 'stop()');

    expect(finished).toBe(true);
    expect(states(h.store)).toEqual({ 1: 'done', 2: 'pending' });
  });

  it('start() keeps running jobs queued later until stopped', async () => {
    const seen = deferred();
    const worker = h.worker({ orderStatus: () => Promise.resolve(seen.resolve()) });
    worker.start(5);
    enqueue(h.store, { kind: 'orderStatus', entityKey: 'singleOrder:a', payload: {} });
    await within(seen.promise, 10_000, 'the job queued after start()');
    await worker.stop();
    expect(states(h.store)).toEqual({ 1: 'done' });
  });
});
