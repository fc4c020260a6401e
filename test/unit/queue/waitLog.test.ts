import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, type Handler } from '../../../src/queue/index.js';
import { TransientError } from '../../../src/shared/errors.js';
import { queueHarness, states, type QueueHarness } from '../../support/queue/queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const MINUTE = 60_000;
/** Back-offs of at most a minute (half of it with the harness's jitter) and tries enough. */
const PATIENT = { maxAttempts: 100, baseDelayMs: MINUTE, maxDelayMs: 2 * MINUTE };

const waitsForCare = (id: string) =>
  new TransientError(`singleOrder ${id} waits for integratedCare ic-1, not yet known`, {
    resource: 'singleOrder',
    id,
    code: 'DELIVERY_WAITS_FOR_REFERENCE',
  });

function queueOrders(count: number): number[] {
  return Array.from(
    { length: count },
    (_, n) =>
      enqueue(h.store, { kind: 'orderStatus', entityKey: `singleOrder:o-${n}`, payload: {} }).id,
  );
}

/**
 * One worker (its wait log lives as long as it does), whose handler the test swaps: `minutes`
 * runs it once a minute for that many minutes.
 */
function workerOnce() {
  let current: Handler = () => Promise.resolve();
  const worker = h.worker(
    { orderStatus: (job, context) => current(job, context) },
    { retry: PATIENT },
  );
  return async (handler: Handler, count: number): Promise<void> => {
    current = handler;
    for (let minute = 0; minute < count; minute += 1) {
      await worker.runOnce();
      h.clock.advance(MINUTE);
    }
  };
}

const level = (name: string) => h.logs.filter((line) => line.level === name);
const queueLines = (name: string) => level(name).filter((line) => line.msg.startsWith('queue:'));

describe('jobs waiting for one cause are one state in the log', () => {
  it('says the first wait at warn without a stack, a summary every 15 minutes, recovery at info', async () => {
    const ids = queueOrders(5);
    const minutes = workerOnce();
    await minutes((job) => Promise.reject(waitsForCare(job.entityKey)), 20);
    // Five jobs, tried about every minute for 20 minutes: each try at debug only.
    const tries = level('debug').filter((line) => line.code === 'DELIVERY_WAITS_FOR_REFERENCE');
    expect(tries.length).toBeGreaterThan(5 * 10);
    const warned = queueLines('warn');
    expect(warned.map((line) => line.msg)).toEqual([
      expect.stringMatching(
        /^queue: orderStatus singleOrder:o-0 waits, next try at .*: singleOrder singleOrder:o-0 waits for integratedCare ic-1/,
      ),
      expect.stringMatching(
        /^queue: still waiting \(DELIVERY_WAITS_FOR_REFERENCE\): 5 job\(s\); the latest, orderStatus /,
      ),
    ]);
    expect(warned[0]).toMatchObject({ code: 'DELIVERY_WAITS_FOR_REFERENCE', waiting: 1 });
    expect(h.logs.filter((line) => line.level !== 'debug' && 'err' in line)).toEqual([]);

    await minutes(() => Promise.resolve(), 3);
    expect(Object.values(states(h.store))).toEqual(ids.map(() => 'done'));
    const back = queueLines('info').filter((line) => line.msg.includes('no job waits'));
    expect(back).toHaveLength(1);
    expect(back[0]).toMatchObject({
      code: 'DELIVERY_WAITS_FOR_REFERENCE',
      since: warned[0]?.since,
    });
    expect(back[0]?.msg).toMatch(/^queue: no job waits for DELIVERY_WAITS_FOR_REFERENCE any more/);
  });

  it('tells each cause apart, and ends a state only when its last job went through', async () => {
    queueOrders(2);
    const minutes = workerOnce();
    const erpDown = new TransientError('the ERP outbox cannot be written', {
      code: 'ERP_UNAVAILABLE',
    });
    await minutes(
      (job) =>
        Promise.reject(job.entityKey.endsWith('o-0') ? erpDown : waitsForCare(job.entityKey)),
      3,
    );
    expect(queueLines('warn').map((line) => line.code)).toEqual([
      'ERP_UNAVAILABLE',
      'DELIVERY_WAITS_FOR_REFERENCE',
    ]);
    // o-0 goes through; o-1 still waits for its care arrangement.
    await minutes(
      (job) =>
        job.entityKey.endsWith('o-0') ? Promise.resolve() : Promise.reject(waitsForCare('o-1')),
      3,
    );
    expect(queueLines('info').map((line) => line.code)).toEqual(['ERP_UNAVAILABLE']);
    expect(queueLines('warn')).toHaveLength(2);
  });

  it('lets go a job that left the queue without a try (superseded), once it is 15 minutes overdue', async () => {
    const [gone] = queueOrders(2);
    const minutes = workerOnce();
    await minutes((job) => Promise.reject(waitsForCare(job.entityKey)), 2);
    // What an erasure with --force does in another process: the job leaves without a try.
    h.store.db.prepare(`UPDATE queue SET state = 'superseded' WHERE id = ?`).run(gone);
    await minutes((job) => Promise.reject(waitsForCare(job.entityKey)), 20);
    expect(queueLines('info')).toEqual([]);
    await minutes(() => Promise.resolve(), 2);
    expect(queueLines('info').map((line) => line.code)).toEqual(['DELIVERY_WAITS_FOR_REFERENCE']);
  });
});
