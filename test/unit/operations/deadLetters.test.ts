import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  actOnDeadLetters,
  bulkTargets,
  dropDeadLetter,
  retryDeadLetter,
} from '../../../src/operations/index.js';
import { enqueue, type NewJob } from '../../../src/queue/index.js';
import { PermanentError } from '../../../src/shared/errors.js';
import { operatorActionsOn } from '../../../src/store/index.js';
import { deadJobs as deadJobsOf, statusJob } from '../../support/queue/deadJobs.js';
import { queueHarness, states, type QueueHarness } from '../../support/queue/queueHarness.js';

const ALICE = { osUser: 'console:alice', host: '10.0.0.7' };

let h: QueueHarness;
beforeEach(() => {
  h = queueHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const deadJobs = (...jobs: NewJob[]) => deadJobsOf(h, ...jobs);
const status = statusJob;

const patient = (v: number): NewJob => ({
  kind: 'patient',
  entityKey: 'patient:p-1',
  payload: { v },
  supersedes: true,
});

/** Who did what to a job, as the audit keeps it. */
const auditOf = (id: number) =>
  operatorActionsOn(h.store, [`job:${id}`]).map(({ action, detail, osUser, host }) => ({
    action,
    detail,
    osUser,
    host,
  }));

describe('one dead letter (queue retry|drop <id>, the console’s buttons)', () => {
  it('retries and drops it, each kept with who did it', async () => {
    const [a = 0, b = 0] = await deadJobs(status('o-1'), status('o-2'));
    retryDeadLetter(h.store, a, ALICE);
    dropDeadLetter(h.store, b, ALICE);
    expect(states(h.store)).toMatchObject({ [a]: 'pending', [b]: 'dead' });
    expect(auditOf(a)).toEqual([{ action: 'retry', detail: undefined, ...ALICE }]);
    expect(auditOf(b)).toEqual([{ action: 'drop', detail: undefined, ...ALICE }]);
  });

  it('keeps no action that was refused', () => {
    const { id } = enqueue(h.store, status('o-1'));
    expect(() => dropDeadLetter(h.store, id, ALICE)).toThrow(PermanentError);
    expect(auditOf(id)).toEqual([]);
  });
});

describe('all dead letters matching a filter (queue retry|drop --all-dead, the console’s bulk)', () => {
  it('retries every open one and says which it refused: an older full state a newer job replaces', async () => {
    const [a = 0, b = 0, c = 0] = await deadJobs(status('o-1'), status('o-2'), patient(1));
    enqueue(h.store, patient(2));
    dropDeadLetter(h.store, b, ALICE);

    const result = actOnDeadLetters(h.store, 'retry', {}, ALICE, '--all-dead');
    expect(result.done).toEqual([a]);
    expect(result.refused.map((r) => r.id)).toEqual([c]);
    expect(states(h.store)).toMatchObject({ [a]: 'pending', [b]: 'dead', [c]: 'dead' });
    expect(auditOf(a)).toEqual([{ action: 'retry', detail: '--all-dead', ...ALICE }]);
    expect(auditOf(c)).toEqual([]);
  });

  it('takes only the kind asked for, at most the cap, and none that died after the count', async () => {
    const [a = 0, b = 0, c = 0, p = 0] = await deadJobs(
      status('o-1'),
      status('o-2'),
      status('o-3'),
      patient(1),
    );
    expect(bulkTargets(h.store, { kind: 'orderStatus' })).toEqual({
      ids: [a, b, c],
      left: 0,
      upTo: c,
    });
    const counted = bulkTargets(h.store, { kind: 'orderStatus', cap: 2 });
    expect(counted).toEqual({ ids: [a, b], left: 1, upTo: c });
    const [later = 0] = await deadJobs(status('o-4'));

    const result = actOnDeadLetters(
      h.store,
      'drop',
      { kind: 'orderStatus', upTo: c, cap: 2 },
      ALICE,
      'console: kind orderStatus',
    );
    expect(result).toEqual({ done: [a, b], refused: [], left: 1 });
    expect(states(h.store)).toMatchObject({ [c]: 'dead', [p]: 'dead', [later]: 'dead' });
    expect(bulkTargets(h.store, {}).ids).toEqual([c, p, later]);
  });
});
