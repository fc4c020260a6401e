import { describe, expect, it } from 'vitest';
import { transition, type JobState } from '../../../src/store/jobStates.js';

const STATES: readonly JobState[] = ['pending', 'running', 'done', 'dead', 'superseded'];

describe('queue job states', () => {
  it('allow exactly the changes of the table, and nothing out of done or superseded', () => {
    const allowed = STATES.flatMap((from) =>
      STATES.filter((to) => {
        try {
          transition(from, to);
          return true;
        } catch {
          return false;
        }
      }).map((to) => `${from}→${to}`),
    );
    expect(allowed).toEqual([
      'pending→running',
      'pending→superseded',
      'running→pending',
      'running→done',
      'running→dead',
      'dead→pending',
    ]);
    expect(() => transition('done', 'pending')).toThrow(
      'queue: a job may not go from done to pending',
    );
  });
});
