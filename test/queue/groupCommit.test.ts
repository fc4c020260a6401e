import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, type Handler } from '../../src/queue/index.js';
import {
  countCommits,
  deferred,
  queueHarness,
  states,
  within,
  type QueueHarness,
} from './queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

function queueOrders(count: number): void {
  for (let n = 1; n <= count; n += 1) {
    enqueue(h.store, { kind: 'orderStatus', entityKey: `singleOrder:o-${n}`, payload: { n } });
  }
}

describe('group commit (issue 10)', () => {
  it('claims every job of a pass before the first runs, in one transaction', async () => {
    queueOrders(3);
    const seen: Record<number, string>[] = [];
    const handler: Handler = () => {
      seen.push(states(h.store));
      return Promise.resolve();
    };
    const commits = countCommits(h.store);

    expect(await h.worker({ orderStatus: handler }, { concurrency: 1 }).runOnce()).toBe(3);

    // One lane: while the first job runs, the other two are already taken.
    expect(seen[0]).toEqual({ 1: 'running', 2: 'running', 3: 'running' });
    // One claim, and one commit for the three outcomes: the lane does not wait for a job's
    // commit before it runs the next (that one depends on nothing the first changed).
    expect(commits.count).toBe(2);
    expect(states(h.store)).toEqual({ 1: 'done', 2: 'done', 3: 'done' });
  });

  it('records the outcomes of jobs that end together in one transaction', async () => {
    queueOrders(4);
    const all = deferred();
    let started = 0;
    const handler: Handler = async (job) => {
      started += 1;
      if (started === 4) all.resolve();
      await all.promise;
      if (job.payload['n'] === 2) throw new Error('a bug');
    };
    const commits = countCommits(h.store);

    await within(h.worker({ orderStatus: handler }).runOnce(), 10_000, 'runOnce');

    // One claim, one commit for three completions and a retry.
    expect(commits.count).toBe(2);
    expect(states(h.store)).toEqual({ 1: 'done', 2: 'pending', 3: 'done', 4: 'done' });
  });

  it('keeps the others when one outcome cannot be written; that job runs again', async () => {
    queueOrders(2);
    const handler: Handler = (job) =>
      Promise.resolve(
        job.payload['n'] === 1
          ? () => {}
          : () => {
              throw new Error('disk trouble');
            },
      );
    const worker = h.worker({ orderStatus: handler });

    await worker.runOnce();

    expect(states(h.store)).toEqual({ 1: 'done', 2: 'running' });
    expect(
      h.logs.some((line) => line.msg.includes('could not record the outcome of job(s) 2')),
    ).toBe(true);
    expect(worker.recover()).toEqual([2]);
  });

  it('hands the jobs claimed but not yet run back when it stops', async () => {
    queueOrders(3);
    const first = deferred();
    const release = deferred();
    const handler: Handler = async () => {
      first.resolve();
      await release.promise;
    };
    const worker = h.worker({ orderStatus: handler }, { concurrency: 1 });
    worker.start(60_000);
    await first.promise;
    expect(states(h.store)).toEqual({ 1: 'running', 2: 'running', 3: 'running' });

    const stopped = worker.stop();
    release.resolve();
    await within(stopped, 10_000, 'stop');

    expect(states(h.store)).toEqual({ 1: 'done', 2: 'pending', 3: 'pending' });
    // Not a crash: nothing left for recover() to free.
    expect(worker.recover()).toEqual([]);
  });
});

describe('wake-ups (issue 10)', () => {
  it('runs a job queued while the worker waits at once, not at the next poll', async () => {
    const ran = deferred();
    const handler: Handler = () => {
      ran.resolve();
      return Promise.resolve();
    };
    const worker = h.worker({ orderStatus: handler });
    // A poll far longer than the test may take: only a wake-up can run the job in time.
    worker.start(3_600_000);
    await worker.runOnce();
    await new Promise((resolve) => setImmediate(resolve));

    queueOrders(1);

    await within(ran.promise, 10_000, 'the queued job');
    await worker.stop();
    expect(states(h.store)).toEqual({ 1: 'done' });
  });

  it('runs the jobs already waiting at start without waiting for a poll', async () => {
    queueOrders(2);
    const worker = h.worker({ orderStatus: () => Promise.resolve() });
    worker.start(3_600_000);
    await within(worker.runOnce(), 10_000, 'the first pass');
    await worker.stop();
    expect(states(h.store)).toEqual({ 1: 'done', 2: 'done' });
  });
});
