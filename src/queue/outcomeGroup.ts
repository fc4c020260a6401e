import { recordOutcomes, type JobRunner, type Outcome } from './runJob.js';

export interface OutcomeGroup {
  /**
   * Writes the outcomes with every other one recorded before the event loop's next turn, in one
   * transaction (group commit: one sync to disk for the jobs that ended together). Resolves
   * once they are committed; rejects when one of them could not be written.
   */
  record(outcomes: readonly Outcome[]): Promise<void>;
}

interface Waiting {
  outcomes: readonly Outcome[];
  resolve(): void;
  reject(error: unknown): void;
}

export function outcomeGroup(runner: JobRunner): OutcomeGroup {
  let waiting: Waiting[] = [];

  function flush(): void {
    const group = waiting;
    waiting = [];
    let failures: Map<Outcome, unknown>;
    try {
      const unwritten = recordOutcomes(
        runner,
        group.flatMap((entry) => entry.outcomes),
      );
      failures = new Map(unwritten.map(({ outcome, error }) => [outcome, error]));
    } catch (error) {
      for (const entry of group) entry.reject(error);
      return;
    }
    for (const entry of group) {
      const failed = entry.outcomes.find((outcome) => failures.has(outcome));
      if (failed === undefined) entry.resolve();
      else entry.reject(failures.get(failed));
    }
  }

  return {
    record(outcomes) {
      if (outcomes.length === 0) return Promise.resolve();
      return new Promise((resolve, reject) => {
        if (waiting.length === 0) setImmediate(flush);
        waiting.push({ outcomes, resolve, reject });
      });
    },
  };
}
