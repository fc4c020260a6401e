import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  enqueue,
  type BatchHandler,
  type Handler,
  type Job,
  type JobKind,
} from '../../../src/queue/index.js';
import {
  countCommits,
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

/** How long a handler waits for the other channel before it gives up (and the test fails). */
const BOUND_MS = 10_000;

function queueJob(kind: JobKind, order: string, payload: Record<string, unknown> = {}): number {
  return enqueue(h.store, { kind, entityKey: `singleOrder:${order}`, payload }).id;
}

/** Hand-overs of `count` orders, queued before anything else (as a pull queues its backlog). */
function queueDeliveries(count: number): number[] {
  return Array.from({ length: count }, (_, n) => queueJob('deliver.singleOrder', `d-${n}`));
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('two channels: hand-overs to the ERP and writes to the platform (issue 10)', () => {
  it('runs an acknowledgement while a hand-over of a larger backlog, queued before it, still runs', async () => {
    // More hand-overs than one pass claims, in one batch, queued before the acknowledgement:
    // a worker taking ready jobs in id order never reaches it while the batch runs.
    const deliveries = queueDeliveries(300);
    const ack = queueJob('ack.singleOrder', 'a-1');
    const acknowledged = deferred();
    const handedOver: BatchHandler = {
      maxJobs: 500,
      async run(jobs) {
        // Hands over only once the acknowledgement went out; after BOUND_MS it fails instead.
        await within(acknowledged.promise, BOUND_MS, 'the acknowledgement queued later');
        return jobs.map(() => ({ ok: true }));
      },
    };
    const worker = h.worker({
      'deliver.singleOrder': handedOver,
      'ack.singleOrder': () => Promise.resolve(acknowledged.resolve()),
    });

    expect(await worker.runOnce()).toBe(301);

    const after = states(h.store);
    expect(after[ack]).toBe('done');
    expect(deliveries.filter((id) => after[id] !== 'done')).toEqual([]);
  });

  it('wakes the platform channel for a job queued while the hand-overs run (daemon)', async () => {
    queueDeliveries(3);
    const started = deferred();
    const acknowledged = deferred();
    const worker = h.worker(
      {
        'deliver.singleOrder': async () => {
          started.resolve();
          await within(acknowledged.promise, BOUND_MS, 'the acknowledgement queued later');
        },
        'ack.singleOrder': () => Promise.resolve(acknowledged.resolve()),
      },
      { concurrency: 1 },
    );
    // A poll far longer than the test: only a wake-up of the idle channel runs the job in time.
    worker.start(3_600_000);
    await within(started.promise, BOUND_MS, 'the first hand-over');

    const ack = queueJob('ack.singleOrder', 'a-1');

    await within(acknowledged.promise, BOUND_MS, 'the acknowledgement');
    await worker.stop();
    expect(states(h.store)[ack]).toBe('done');
    expect(Object.values(states(h.store))).not.toContain('running');
  });

  it('keeps one entity’s jobs in the order queued across the channels, others side by side', async () => {
    const orders = ['o-1', 'o-2', 'o-3', 'o-4'];
    const kinds: JobKind[] = ['deliver.singleOrder', 'ack.singleOrder', 'orderStatus'];
    // Each order's five jobs alternate between the channels, each order starting at another
    // kind, so that both channels have work at every step.
    const steps = [0, 1, 2, 3, 4];
    for (const step of steps) {
      for (const [n, order] of orders.entries()) {
        queueJob(kinds[(step + n) % kinds.length] ?? 'orderStatus', order, { step });
      }
    }
    const events: { job: Job; event: 'start' | 'end' }[] = [];
    let bothChannels = false;
    const running = new Set<string>();
    const handler: Handler = async (job) => {
      events.push({ job, event: 'start' });
      running.add(job.kind);
      if (running.has('deliver.singleOrder') && running.size > 1) bothChannels = true;
      // Several turns of the event loop, so that a job let out too early would overlap.
      for (let turn = 0; turn < 5; turn += 1) await settle();
      running.delete(job.kind);
      events.push({ job, event: 'end' });
    };
    const worker = h.worker({
      'deliver.singleOrder': handler,
      'ack.singleOrder': handler,
      orderStatus: handler,
    });

    expect(await within(worker.runUntilEmpty(), BOUND_MS, 'runUntilEmpty')).toEqual({
      ran: 20,
      waiting: 0,
    });

    for (const order of orders) {
      const ofOrder = events.filter((e) => e.job.entityKey === `singleOrder:${order}`);
      // start, end, start, end, …: never two of one order at once, and in the order queued.
      expect(ofOrder.map((e) => e.event)).toEqual(steps.flatMap(() => ['start', 'end']));
      expect(ofOrder.filter((e) => e.event === 'start').map((e) => e.job.payload['step'])).toEqual([
        0, 1, 2, 3, 4,
      ]);
    }
    expect(bothChannels).toBe(true);
  });

  it('runUntilEmpty drains both channels: the acknowledgements hand-overs queue run too', async () => {
    queueDeliveries(5);
    const worker = h.worker({
      'deliver.singleOrder': (job) =>
        Promise.resolve(() => {
          // As the real hand-over does: its success queues the acknowledgement.
          enqueue(h.store, { kind: 'ack.singleOrder', entityKey: job.entityKey, payload: {} });
        }),
      'ack.singleOrder': () => Promise.resolve(),
    });

    expect(await worker.runUntilEmpty()).toEqual({ ran: 10, waiting: 0 });

    const after = states(h.store);
    expect(Object.keys(after)).toHaveLength(10);
    expect(new Set(Object.values(after))).toEqual(new Set(['done']));
  });

  it('records the outcomes of both channels’ jobs that end together in one transaction', async () => {
    const [delivery] = queueDeliveries(1);
    const ack = queueJob('ack.singleOrder', 'a-1');
    const both = deferred();
    let started = 0;
    const handler: Handler = async () => {
      started += 1;
      if (started === 2) both.resolve();
      await within(both.promise, BOUND_MS, 'a job of each channel');
    };
    const commits = countCommits(h.store);

    await h.worker({ 'deliver.singleOrder': handler, 'ack.singleOrder': handler }).runOnce();

    // A claim per channel, one commit for the hand-over's and the acknowledgement's outcomes.
    expect(commits.count).toBe(3);
    expect([delivery, ack].map((id) => states(h.store)[id ?? 0])).toEqual(['done', 'done']);
  });

  it('stop() waits for both channels’ running jobs, hands their unrun claims back, leaves none running', async () => {
    const deliveries = queueDeliveries(3);
    const acks = ['a-1', 'a-2', 'a-3'].map((order) => queueJob('ack.singleOrder', order));
    const bothRunning = deferred();
    const release = deferred();
    let started = 0;
    const handler: Handler = async () => {
      started += 1;
      if (started === 2) bothRunning.resolve();
      await release.promise;
    };
    const worker = h.worker(
      { 'deliver.singleOrder': handler, 'ack.singleOrder': handler },
      { concurrency: 1 },
    );
    worker.start(60_000);
    // One lane each: a hand-over and an acknowledgement run at once, the others are claimed.
    await within(bothRunning.promise, BOUND_MS, 'a job of each channel');
    expect(Object.values(states(h.store)).filter((s) => s === 'running')).toHaveLength(6);

    const stopped = worker.stop();
    release.resolve();
    await within(stopped, BOUND_MS, 'stop');

    const after = states(h.store);
    expect([deliveries, acks].map((ids) => ids.map((id) => after[id]))).toEqual([
      ['done', 'pending', 'pending'],
      ['done', 'pending', 'pending'],
    ]);
    // Not a crash: nothing left for recover() to free.
    expect(worker.recover()).toEqual([]);
  });
});
