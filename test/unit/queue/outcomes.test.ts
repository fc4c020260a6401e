import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { enqueue, getJob, type Handler } from '../../../src/queue/index.js';
import { notKnown } from '../../../src/pushback/once/failures.js';
import { PermanentError, TransientError } from '../../../src/shared/errors.js';
import { getStoredJob } from '../../../src/store/index.js';
import {
  queueHarness,
  RETRY,
  states,
  type QueueHarness,
} from '../../support/queue/queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const busy = () =>
  new TransientError(
    'PATCH /singleOrder/{id} (singleOrder o-1) answered HTTP 503; the platform failed',
    {
      status: 503,
      bodyExcerpt: '{"message":"maintenance"}',
    },
  );

function queueOne(): number {
  return enqueue(h.store, { kind: 'orderStatus', entityKey: 'singleOrder:o-1', payload: {} }).id;
}

/** Runs the job until it is dead, returning the wait before each retry in ms. */
async function waitsUntilDead(handler: Handler, random: () => number): Promise<number[]> {
  const id = queueOne();
  const worker = h.worker({ orderStatus: handler }, { random });
  const waits: number[] = [];
  for (;;) {
    expect(await worker.runOnce()).toBe(1);
    const job = getStoredJob(h.store, id);
    if (job?.state !== 'pending') return waits;
    const wait = Date.parse(job.nextAttemptAt) - h.clock.now().getTime();
    waits.push(wait);
    if (wait > 0) {
      h.clock.advance(wait - 1);
      expect(await worker.runOnce()).toBe(0);
      h.clock.advance(1);
    }
  }
}

describe('back-off', () => {
  it('grows exponentially, scaled by the jitter, and is capped at maxDelayMs', async () => {
    const half = await waitsUntilDead(
      () => Promise.reject(busy()),
      () => 0.5,
    );
    // Ceilings 1000, 2000, 4000, then 8000 capped at 5000; full jitter draws half of each.
    expect(half).toEqual([500, 1000, 2000, 2500]);
  });

  it('draws each wait from the random source (full jitter)', async () => {
    const draws = [0.1, 0.9, 0.3, 0.999];
    const waits = await waitsUntilDead(
      () => Promise.reject(busy()),
      () => draws.shift() ?? 0,
    );
    expect(waits).toEqual([100, 1800, 1200, 4995]);
  });

  it('honours Retry-After, even beyond maxDelayMs, and never retries sooner', async () => {
    const throttled = new TransientError('answered HTTP 429', {
      status: 429,
      retryAfterMs: 120_000,
    });
    const id = queueOne();
    let tries = 0;
    const worker = h.worker({
      orderStatus: () => {
        tries += 1;
        return tries === 1 ? Promise.reject(throttled) : Promise.resolve();
      },
    });
    await worker.runOnce();
    const job = getStoredJob(h.store, id);
    expect(Date.parse(job?.nextAttemptAt ?? '') - h.clock.now().getTime()).toBe(120_000);
    expect(job).toMatchObject({ attempts: 1, lastStatus: 429, lastError: 'answered HTTP 429' });

    h.clock.advance(119_999);
    expect(await worker.runUntilEmpty()).toEqual({ ran: 0, waiting: 1 });
    h.clock.advance(1);
    expect(await worker.runUntilEmpty()).toEqual({ ran: 1, waiting: 0 });
    expect(states(h.store)).toEqual({ [id]: 'done' });
  });

  it('with skipBackoff, runs each job waiting for our own wait once now, but not one waiting out a Retry-After', async () => {
    const waits = {
      backoff: busy(),
      breaker: new TransientError('not sent: the platform was unreachable a moment ago', {
        retryAfterMs: 30_000,
        ownWait: true,
      }),
      // A handler relabels the breaker's failure with its subject; whose wait it is stays.
      relabelled: new TransientError('acknowledging order o-3: not sent', {
        cause: new TransientError('not sent', { retryAfterMs: 30_000, ownWait: true }),
        retryAfterMs: 30_000,
      }),
      // Waiting for the next pull is our own wait too: a one-shot pass has just pulled.
      notKnownYet: notKnown(
        { id: 0, kind: 'orderStatus', entityKey: 'x', payload: {}, attempts: 0, createdAt: '' },
        'order o-4 is not known yet',
        'check the order',
        { resource: 'singleOrder' },
      ),
      retryAfter: new TransientError('answered HTTP 503', { status: 503, retryAfterMs: 60_000 }),
    };
    const ids = Object.fromEntries(
      Object.keys(waits).map((name) => [
        name,
        enqueue(h.store, { kind: 'orderStatus', entityKey: `singleOrder:${name}`, payload: {} }).id,
      ]),
    );
    const tries: string[] = [];
    let failing = true;
    const worker = h.worker({
      orderStatus: (job) => {
        const name = job.entityKey.slice('singleOrder:'.length) as keyof typeof waits;
        tries.push(name);
        return failing ? Promise.reject(waits[name]) : Promise.resolve();
      },
    });
    expect(await worker.runUntilEmpty({ skipBackoff: true })).toEqual({ ran: 5, waiting: 5 });
    expect(getStoredJob(h.store, ids['retryAfter'] ?? 0)?.retryAfterUntil).toBeDefined();
    expect(getStoredJob(h.store, ids['breaker'] ?? 0)?.retryAfterUntil).toBeUndefined();

    // Still failing: each job waiting for our wait is tried once more, not until it is dead.
    tries.length = 0;
    expect(await worker.runUntilEmpty({ skipBackoff: true })).toEqual({ ran: 4, waiting: 5 });
    expect(tries.sort()).toEqual(['backoff', 'breaker', 'notKnownYet', 'relabelled']);
    expect(await worker.runUntilEmpty()).toEqual({ ran: 0, waiting: 5 });

    failing = false;
    tries.length = 0;
    expect(await worker.runUntilEmpty({ skipBackoff: true })).toEqual({ ran: 4, waiting: 1 });
    h.clock.advance(60_000);
    expect(await worker.runUntilEmpty({ skipBackoff: true })).toEqual({ ran: 1, waiting: 0 });
    expect(tries.sort()).toEqual(['backoff', 'breaker', 'notKnownYet', 'relabelled', 'retryAfter']);
  });
});

describe('dead letters', () => {
  it('a transient failure is dead after retry.maxAttempts tries, with status and body', async () => {
    await waitsUntilDead(
      () => Promise.reject(busy()),
      () => 0.5,
    );
    const job = getJob(h.store, 1);
    expect(job).toMatchObject({ state: 'dead', attempts: RETRY.maxAttempts, lastStatus: 503 });
    expect(job?.deadLetters).toHaveLength(1);
    expect(job?.deadLetters[0]).toMatchObject({
      reason: `gave up after 5 tries (retry.maxAttempts): ${busy().message}`,
      httpStatus: 503,
      bodyExcerpt: '{"message":"maintenance"}',
      resolvedAt: undefined,
    });
  });

  it('a permanent failure is dead at once, with the platform’s status and body', async () => {
    const refused = new PermanentError(
      'PATCH /singleOrder/{id} (singleOrder o-1) answered HTTP 422; check the record against the platform contract',
      { status: 422, bodyExcerpt: '{"error":"status transition not allowed"}' },
    );
    const id = queueOne();
    const later = enqueue(h.store, {
      kind: 'orderStatus',
      entityKey: 'singleOrder:o-1',
      payload: {},
    }).id;
    let calls = 0;
    const worker = h.worker({
      orderStatus: (job) => {
        calls += 1;
        return job.id === id ? Promise.reject(refused) : Promise.resolve();
      },
    });

    expect(await worker.runUntilEmpty()).toEqual({ ran: 2, waiting: 0 });
    expect(calls).toBe(2);
    const job = getJob(h.store, id);
    expect(job).toMatchObject({ state: 'dead', attempts: 1, lastStatus: 422 });
    expect(job?.lastError).toBe(refused.message);
    expect(job?.deadLetters.map((l) => [l.reason, l.httpStatus, l.bodyExcerpt])).toEqual([
      [refused.message, 422, '{"error":"status transition not allowed"}'],
    ]);
    // A dead job no longer holds its entity's later jobs back.
    expect(states(h.store)[later]).toBe('done');
    const line = h.logs.find((log) => log.level === 'error' && log['jobId'] === id);
    expect(line?.msg).toContain(`queue retry ${id}`);
  });

  it('a job whose kind has no handler is dead with a reason saying so', async () => {
    const id = enqueue(h.store, { kind: 'device', entityKey: 'device:d-1', payload: {} }).id;
    await h.worker({}).runUntilEmpty();
    expect(getJob(h.store, id)?.deadLetters[0]?.reason).toBe('no handler for job kind device');
    expect(getJob(h.store, id)).toMatchObject({ state: 'dead', attempts: 0 });
  });

  it('anything else thrown is a bug: retried like a transient error and logged with its stack', async () => {
    const id = queueOne();
    const worker = h.worker({
      orderStatus: () =>
        Promise.reject(new TypeError("Cannot read properties of undefined (reading 'x')")),
    });
    await worker.runOnce();
    expect(getStoredJob(h.store, id)).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: "Cannot read properties of undefined (reading 'x')",
    });
    const line = h.logs.find((log) => log.level === 'error' && log['jobId'] === id);
    const err = line?.['err'] as { type?: string; stack?: string } | undefined;
    expect(err?.type).toBe('TypeError');
    expect(err?.stack).toContain('outcomes.test.ts');
  });
});
