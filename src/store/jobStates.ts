/** The states of a queue job; `pending` and `running` hold later jobs of the same entity back. */
export type JobState = 'pending' | 'running' | 'done' | 'dead' | 'superseded';

/**
 * Every state change a job may make. A job is queued `pending`; a worker claims it (`running`)
 * and it ends `done`, goes back to `pending` to wait for its next try (or because the process
 * that ran it stopped), or is `dead`. A newer job of a whole-state kind makes a pending one
 * `superseded`; an operator's retry puts a dead one back to `pending`. Done and superseded jobs
 * never change again.
 */
const TRANSITIONS: Readonly<Record<JobState, readonly JobState[]>> = {
  pending: ['running', 'superseded'],
  running: ['done', 'pending', 'dead'],
  dead: ['pending'],
  done: [],
  superseded: [],
};

/**
 * The one check every state change of the queue goes through: the parameters `@from` and `@to`
 * of the statement that makes it (which changes a row only while it is still in `from`).
 * Throws for a change the table does not allow: a bug, never a run-time condition.
 */
export function transition(from: JobState, to: JobState): { from: JobState; to: JobState } {
  if (!TRANSITIONS[from].includes(to)) {
    throw new Error(`queue: a job may not go from ${from} to ${to}`);
  }
  return { from, to };
}
