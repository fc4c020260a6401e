import { waitLog, type Logger, type WaitLog } from '../log/index.js';
import type { PlatformFailures } from '../platform/index.js';
import type { Clock } from '../shared/clock.js';
import type { HomecareError } from '../shared/errors.js';
import type { StoredJob } from '../store/index.js';

export interface JobWaits {
  /**
   * A job failed for an expected reason (a typed, transient error) and waits for its next try
   * at `nextAt`: the first job of its cause (the error's code) says so, the rest only count.
   */
  waits(job: StoredJob, error: HomecareError, nextAt: string, level: 'warn' | 'error'): void;
  /** A job is done or dead: it waits no more; the last one of a cause ends that state. */
  ended(job: StoredJob): void;
}

/** A job by its kind and entity: a newer version's job, which supersedes it, takes its place. */
const memberOf = (job: StoredJob): string => `${job.kind} ${job.entityKey}`;

/**
 * The queue's waits as states, one per cause (the error's code: the ERP unavailable, a
 * reference not yet pulled), through the wait log: a thousand hand-overs waiting for the ERP are
 * three lines, not a thousand per back-off round. A failure of a platform outage's kind (a 5xx,
 * a time-out, a reset) joins that outage's state (`platform`), shared with the lists that meet it.
 */
export function jobWaits(logger: Logger, clock: Clock, platform?: PlatformFailures): JobWaits {
  const log: WaitLog = waitLog({
    logger,
    now: () => clock.now().getTime(),
    causeField: 'code',
    lines: (code) => ({
      down: (problem, count, again) =>
        again
          ? `queue: still waiting (${code}): ${count} job(s); the latest, ${problem}`
          : `queue: ${problem}`,
      back: (since) => `queue: no job waits for ${code} any more (waited since ${since})`,
    }),
  });
  return {
    waits(job, error, nextAt, level) {
      const fields = { jobId: job.id, kind: job.kind, entityKey: job.entityKey };
      const dueAt = Date.parse(nextAt);
      if (platform?.failed(memberOf(job), error, fields, dueAt) === true) return;
      log.waits({
        cause: error.code,
        member: memberOf(job),
        level,
        problem: `${job.kind} ${job.entityKey} waits, next try at ${nextAt}: ${error.message}`,
        fields,
        dueAt,
      });
    },
    ended(job) {
      platform?.passed(memberOf(job));
      log.ended(memberOf(job));
    },
  };
}
