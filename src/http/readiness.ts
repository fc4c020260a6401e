import { CronExpressionParser } from 'cron-parser';

export interface ResourceFreshness {
  resource: string;
  schedule: string;
  /** ISO time of the last successful pull, undefined when there was none yet. */
  lastSuccessAt: string | undefined;
}

export interface ReadinessInput {
  now: Date;
  /** When this process started: a resource never pulled yet counts from here. */
  startedAt: Date;
  databaseOk: boolean;
  resources: readonly ResourceFreshness[];
  /** How many schedule intervals a pull may be late before the daemon is not ready. */
  toleratedIntervals: number;
}

export interface Readiness {
  ready: boolean;
  problems: string[];
}

/** Milliseconds between two runs of a cron schedule, measured from `from`. */
export function scheduleIntervalMs(schedule: string, from: Date): number {
  const runs = CronExpressionParser.parse(schedule, { currentDate: from, tz: 'UTC' });
  const first = runs.next().getTime();
  return runs.next().getTime() - first;
}

/**
 * Ready when the database answers and every scheduled resource had a successful pull within
 * `toleratedIntervals` of its schedule's interval (plus a minute for the run itself).
 */
export function readiness(input: ReadinessInput): Readiness {
  const problems: string[] = [];
  if (!input.databaseOk) problems.push('the database does not answer');
  for (const entry of input.resources) {
    const allowedMs =
      input.toleratedIntervals * scheduleIntervalMs(entry.schedule, input.now) + 60_000;
    const since =
      entry.lastSuccessAt === undefined ? input.startedAt : new Date(entry.lastSuccessAt);
    const ageMs = input.now.getTime() - since.getTime();
    if (ageMs > allowedMs) {
      const what =
        entry.lastSuccessAt === undefined
          ? 'no successful pull yet'
          : `last successful pull ${entry.lastSuccessAt}`;
      problems.push(
        `${entry.resource}: ${what}, expected one every ${Math.round(allowedMs / 60_000)} minutes at most`,
      );
    }
  }
  return { ready: problems.length === 0, problems };
}
