import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  dropJob,
  enqueue,
  getJob,
  listJobs,
  retryJob,
  type NewJob,
} from '../../../src/queue/index.js';
import { PermanentError } from '../../../src/shared/errors.js';
import type { Superseding } from '../../../src/queue/index.js';
import { deadJobs as deadJobsOf, refused, statusJob } from '../../support/queue/deadJobs.js';
import { queueHarness, states, type QueueHarness } from '../../support/queue/queueHarness.js';

/** Patients carry their whole state (as the push-back kinds say, src/pushback/kinds/). */
const fullState: Superseding = (kind) => kind === 'patient';

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const deadJobs = (...jobs: NewJob[]) => deadJobsOf(h, ...jobs);
const status = statusJob;

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(PermanentError);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('retry', () => {
  it('puts a dead job back, due now, tries counted from zero, its dead letter resolved', async () => {
    const [id = 0] = await deadJobs(status('o-1'));
    h.clock.advance(3_600_000);

    const job = retryJob(h.store, id, fullState);
    expect(job).toMatchObject({ state: 'pending', attempts: 0 });
    expect(job.nextAttemptAt).toBe(h.clock.now().toISOString());
    expect(getJob(h.store, id)?.deadLetters).toMatchObject([
      { resolution: 'retried', resolvedAt: h.clock.now().toISOString() },
    ]);

    await h.worker({ orderStatus: refused }).runUntilEmpty();
    const history = getJob(h.store, id)?.deadLetters ?? [];
    expect(history.map((letter) => letter.resolution)).toEqual(['retried', undefined]);
  });

  it('refuses jobs that are not dead, and ids that do not exist', () => {
    const { id } = enqueue(h.store, status('o-1'));
    expect(refusal(() => retryJob(h.store, id, fullState))).toBe(
      `job ${id} (orderStatus singleOrder:o-1) is pending: it is still in the queue and runs on its own`,
    );
    expect(refusal(() => retryJob(h.store, 99, fullState))).toBe(
      'no job 99 in the queue; `homecare-sync queue list` shows the ids',
    );
  });

  it('refuses an old full-state job a newer one replaces: it would send outdated data', async () => {
    const patient: NewJob = {
      kind: 'patient',
      entityKey: 'patient:p-1',
      payload: { v: 1 },
      supersedes: true,
    };
    const [old = 0] = await deadJobs(patient);
    const { id: newer } = enqueue(h.store, { ...patient, payload: { v: 2 } });
    expect(refusal(() => retryJob(h.store, old, fullState))).toContain(
      `is older than job ${newer}, which replaces it`,
    );
    expect(getJob(h.store, old)?.state).toBe('dead');
  });
});

describe('drop', () => {
  it('resolves a dead job’s dead letter as dropped and keeps the job for the record', async () => {
    const [id = 0, other = 0] = await deadJobs(status('o-1'), status('o-2'));
    const dropped = dropJob(h.store, id);
    expect(dropped.state).toBe('dead');
    expect(getJob(h.store, id)).toMatchObject({
      status: 'dropped',
      deadLetters: [{ resolution: 'dropped' }],
    });
    expect(listJobs(h.store, { dead: true }).map((job) => job.id)).toEqual([other]);
    expect(listJobs(h.store).map((job) => job.id)).toEqual([other]);
    expect(h.store.db.prepare('SELECT count(*) AS n FROM queue').get()).toEqual({ n: 2 });
  });

  it('refuses a pending job: it may still run, and becomes droppable once dead', () => {
    const { id } = enqueue(h.store, status('o-1'));
    expect(refusal(() => dropJob(h.store, id))).toBe(
      `job ${id} (orderStatus singleOrder:o-1) is pending: it cannot be dropped while it may still run; after retry.maxAttempts failed tries it becomes a dead letter, which can then be dropped`,
    );
    expect(states(h.store)).toEqual({ [id]: 'pending' });
  });
});

describe('list', () => {
  it('lists pending, running and dead jobs oldest first; done and superseded ones stay unlisted', async () => {
    const [dead = 0] = await deadJobs(status('o-1'));
    const { id: pending } = enqueue(h.store, status('o-2'));
    const patient: NewJob = {
      kind: 'patient',
      entityKey: 'patient:p-1',
      payload: {},
      supersedes: true,
    };
    enqueue(h.store, patient);
    const { id: newest } = enqueue(h.store, patient);
    expect(listJobs(h.store).map((job) => [job.id, job.status])).toEqual([
      [dead, 'dead'],
      [pending, 'pending'],
      [newest, 'pending'],
    ]);
    expect(listJobs(h.store, { limit: 1 }).map((job) => job.id)).toEqual([dead]);
  });
});
