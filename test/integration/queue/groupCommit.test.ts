import { isDeepStrictEqual } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src/pushback/index.js';
import { createQueueWorker, enqueue, type Handler } from '../../../src/queue/index.js';
import { GROUP_MAX_WAIT_MS } from '../../../src/queue/outcomeGroup.js';
import { TransientError } from '../../../src/shared/errors.js';
import { countJobs } from '../../../src/store/index.js';
import { sqlitePullStore } from '../../../src/pull/pullStore.js';
import { pullTargets } from '../../../src/pull/targets.js';
import { startHandlerRig } from '../../support/pushback/handlersRig.js';
import { eventually } from '../../support/eventually.js';
import {
  countCommits,
  deferred,
  queueHarness,
  RETRY,
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

/**
 * Job 1 ends at once, its outcome waits for job 2 on the clock: both stay running until the
 * clock moves, and still one millisecond before GROUP_MAX_WAIT_MS has passed.
 */
async function gathering(): Promise<void> {
  const bothRunning = () => isDeepStrictEqual(states(h.store), { 1: 'running', 2: 'running' });
  await eventually('the outcome of job 1 waiting on the clock', () => h.clock.sleeping() === 1);
  expect(bothRunning()).toBe(true);
  h.clock.advance(GROUP_MAX_WAIT_MS - 1);
  await new Promise((resolve) => setImmediate(resolve));
  expect(bothRunning()).toBe(true);
}

describe('gathering outcomes while jobs are under way (issue 10)', () => {
  it('commits the acknowledgements of a pass, answered one after another over loopback, together', async () => {
    const rig = await startHandlerRig('B');
    const worker = createQueueWorker({
      store: rig.store,
      handlers: createHandlers(),
      context: rig.context,
      clock: rig.context.clock,
      logger: rig.context.logger,
      concurrency: 4,
      retry: RETRY,
    });
    try {
      for (let n = 0; n < 12; n += 1) {
        const order = await rig.platformRecord('singleOrder', { status: 0 }, true);
        const id = String(order._id);
        const version = String(order.timestamp);
        const payload = { resource: 'singleOrder', id, version };
        enqueue(rig.store, { kind: 'ack.singleOrder', entityKey: `singleOrder:${id}`, payload });
      }
      const commits = countCommits(rig.store);

      expect(await within(worker.runOnce(), 30_000, 'runOnce')).toBe(12);

      // One claim, one commit for the twelve outcomes: each outcome waited for the jobs still
      // under way (before, each turn of the event loop in which PATCHes were answered had its
      // own commit, of at most `concurrency` outcomes).
      expect(commits.count).toBe(2);
      expect(await rig.requests('PATCH', '/singleOrder/')).toHaveLength(12);
      expect(countJobs(rig.store, 'done')).toBe(12);
      expect(rig.mirrored('singleOrder').map((order) => order.status)).toEqual(Array(12).fill(1));
    } finally {
      await worker.stop();
      await rig.close();
    }
  });

  it('commits an outcome without waiting longer for a job under way once it waited GROUP_MAX_WAIT_MS', async () => {
    queueOrders(2);
    const second = deferred();
    const handler: Handler = async (job) => {
      if (job.payload['n'] === 2) await second.promise;
    };
    const pass = h.worker({ orderStatus: handler }).runOnce();
    await gathering();

    h.clock.advance(1);
    await eventually('the commit of job 1', () => states(h.store)[1] === 'done', 10_000);
    expect(states(h.store)[2]).toBe('running');

    second.resolve();
    await within(pass, 10_000, 'runOnce');
    expect(states(h.store)).toEqual({ 1: 'done', 2: 'done' });
  });

  it('ends a pass whose jobs have all run without waiting for a job of the other channel under way', async () => {
    enqueue(h.store, { kind: 'deliver.singleOrder', entityKey: 'singleOrder:a', payload: {} });
    queueOrders(1);
    const handOver = deferred();
    const pass = h
      .worker({
        'deliver.singleOrder': () => handOver.promise,
        orderStatus: () => Promise.resolve(),
      })
      .runOnce();
    // The clock stands still: only the end of the platform writes' pass commits job 2.
    await eventually(
      'the commit of the acknowledgement',
      () => states(h.store)[2] === 'done',
      10_000,
    );
    expect(states(h.store)[1]).toBe('running');

    handOver.resolve();
    await within(pass, 10_000, 'runOnce');
    expect(states(h.store)).toEqual({ 1: 'done', 2: 'done' });
  });

  it('commits a gathered outcome when the clock was set back meanwhile, not once it caught up', async () => {
    queueOrders(2);
    const second = deferred();
    const handler: Handler = async (job) => {
      if (job.payload['n'] === 2) await second.promise;
    };
    const pass = h.worker({ orderStatus: handler }).runOnce();
    await gathering();

    // Set back, then the group's time is up: the wait tells nothing, the outcome is committed.
    h.clock.advance(-60_000);
    h.clock.advance(1);
    await eventually('the commit of job 1', () => states(h.store)[1] === 'done', 10_000);
    expect(states(h.store)[2]).toBe('running');

    second.resolve();
    await within(pass, 10_000, 'runOnce');
  });
});

describe('a pull while outcomes gather (issue 10)', () => {
  it('commits the gathered outcomes first, so the echo of an acknowledgement is known as ours', async () => {
    const rig = await startHandlerRig('B');
    const answered = deferred();
    const blocked = deferred();
    const acknowledge = createHandlers()['ack.singleOrder'];
    const worker = createQueueWorker({
      store: rig.store,
      handlers: {
        'ack.singleOrder': async (job, context) => {
          const complete = await acknowledge(job, context);
          answered.resolve();
          return complete;
        },
        // Another job, still under way, so the acknowledgement's outcome waits.
        orderStatus: () => blocked.promise,
      },
      context: rig.context,
      clock: rig.context.clock,
      logger: rig.context.logger,
      concurrency: 4,
      retry: RETRY,
    });
    try {
      const order = await rig.platformRecord('singleOrder', { status: 0 }, true);
      const id = String(order._id);
      const payload = { resource: 'singleOrder', id, version: String(order.timestamp) };
      enqueue(rig.store, { kind: 'ack.singleOrder', entityKey: `singleOrder:${id}`, payload });
      enqueue(rig.store, { kind: 'orderStatus', entityKey: 'singleOrder:other', payload: {} });
      const pass = worker.runOnce();
      await within(answered.promise, 10_000, 'the acknowledgement');
      await new Promise((resolve) => setImmediate(resolve));
      expect(countJobs(rig.store, 'done')).toBe(0);

      // The next pull of Transmitted orders brings the order back as the PATCH left it.
      const echo = await rig.stored('singleOrder', id);
      const pullStore = sqlitePullStore(rig.store, () => worker.commitOutcomes());
      const target = pullTargets(rig.context.contract).find(
        (t) => t.resource === 'singleOrder' && t.filter === 'transmitted',
      );
      if (target === undefined) throw new Error('variant B lists no transmitted single orders');
      pullStore.commitBatch(
        { target, mode: 'incremental', startedAt: new Date().toISOString() },
        [{ id, version: String(echo.timestamp), record: echo, json: JSON.stringify(echo) }],
        [],
      );

      expect(countJobs(rig.store, 'done')).toBe(1);
      // Not handed to the ERP again as a change made on the platform.
      expect(countJobs(rig.store, 'pending', 'deliver.')).toBe(0);

      blocked.resolve();
      await within(pass, 10_000, 'runOnce');
    } finally {
      blocked.resolve();
      await worker.stop();
      await rig.close();
    }
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

describe('passes and the event loop', () => {
  it('gives the event loop a turn between passes whose jobs end without any I/O', async () => {
    queueOrders(1);
    // Each try fails at once and may be tried again at once: pass after pass without I/O.
    const retry = { maxAttempts: 1_000, baseDelayMs: 0, maxDelayMs: 0 };
    let tries = 0;
    let triesBeforeTurn: number | undefined;
    setImmediate(() => (triesBeforeTurn = tries));
    const handler: Handler = () => {
      tries += 1;
      // Bounded, so that the code before this fix ends too (it would hold the loop otherwise).
      if (tries >= 200) return Promise.resolve();
      return Promise.reject(new TransientError('waits for integratedCare ic-1'));
    };
    const worker = h.worker({ orderStatus: handler }, { retry });

    worker.start(3_600_000);
    await within(
      new Promise<void>((resolve) => setImmediate(resolve)),
      10_000,
      'a turn of the loop',
    );
    await worker.stop();

    // Timers, I/O and the pulls they feed get their turn after a pass, not after 200.
    expect(triesBeforeTurn).toBeLessThan(3);
  });
});
