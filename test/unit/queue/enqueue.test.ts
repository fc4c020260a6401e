import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/index.js';
import { enqueue } from '../../../src/queue/index.js';
import { claimJob, getStoredJob, transaction } from '../../../src/store/index.js';
import { queueHarness, states, type QueueHarness } from '../../support/queue/queueHarness.js';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const patient = (lastName: string) => ({
  kind: 'patient' as const,
  entityKey: 'patient:p-1',
  payload: { _id: 'p-1', lastName },
  supersedes: true,
});

describe('enqueue', () => {
  it('queues a job with the same idempotency key once and returns the first id', () => {
    const job = {
      kind: 'ack.singleOrder' as const,
      entityKey: 'singleOrder:o-1',
      payload: { id: 'o-1' },
      idempotencyKey: 'ack:singleOrder:o-1:2026-01-15T08:00:00Z',
    };
    const first = enqueue(h.store, job);
    const second = enqueue(h.store, { ...job, payload: { id: 'o-1', other: true } });
    expect(first).toEqual({ id: 1, queued: true, superseded: [] });
    expect(second).toEqual({ id: 1, queued: false, superseded: [] });
    expect(states(h.store)).toEqual({ 1: 'pending' });
    expect(getStoredJob(h.store, 1)?.payload).toEqual({ id: 'o-1' });
  });

  it('queues jobs without an idempotency key every time', () => {
    enqueue(h.store, patient('A'));
    enqueue(h.store, { ...patient('A'), kind: 'patientNote', supersedes: false });
    enqueue(h.store, { ...patient('A'), kind: 'patientNote', supersedes: false });
    expect(Object.keys(states(h.store))).toHaveLength(3);
  });

  it('commits with the caller’s transaction, or not at all', () => {
    expect(() =>
      transaction(h.store, () => {
        enqueue(h.store, patient('A'));
        throw new Error('the caller failed after queueing');
      }),
    ).toThrow('the caller failed');
    expect(states(h.store)).toEqual({});
  });
});

describe('superseding', () => {
  it('a full-state job supersedes older pending jobs of its kind and entity, not a running one', () => {
    enqueue(h.store, patient('v1'));
    expect(claimJob(h.store, 1, '2026-01-15T09:00:00.000Z')?.state).toBe('running');
    enqueue(h.store, patient('v2'));
    enqueue(h.store, { ...patient('other'), entityKey: 'patient:p-2' });
    enqueue(h.store, { ...patient('note'), kind: 'patientNote', supersedes: false });
    const latest = enqueue(h.store, patient('v3'));

    expect(latest).toEqual({ id: 5, queued: true, superseded: [2] });
    expect(states(h.store)).toEqual({
      1: 'running',
      2: 'superseded',
      3: 'pending',
      4: 'pending',
      5: 'pending',
    });
    expect(getStoredJob(h.store, 2)?.supersededBy).toBe(5);
  });

  it('logs what it superseded when given a logger, naming ids, never the payload', () => {
    const lines: string[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (l) => void lines.push(l) },
    });
    enqueue(h.store, patient('Mustermann'), logger);
    enqueue(h.store, patient('Musterfrau'), logger);
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
    expect(line).toMatchObject({ jobId: 2, superseded: [1], entityKey: 'patient:p-1' });
    expect(lines[0]).not.toContain('Muster');
  });

  it('never supersedes status changes: each step of an order matters', () => {
    for (const status of ['transmitted', 'confirmed', 'delivered']) {
      enqueue(h.store, {
        kind: 'orderStatus',
        entityKey: 'singleOrder:o-1',
        payload: { orderType: 'single', id: 'o-1', status },
      });
    }
    expect(states(h.store)).toEqual({ 1: 'pending', 2: 'pending', 3: 'pending' });
  });
});
