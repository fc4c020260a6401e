import { CronExpressionParser } from 'cron-parser';

/** One check of `/readyz`: ok, or what is wrong and what to look at. */
export interface CheckResult {
  ok: boolean;
  problem?: string;
}

export interface Readiness {
  ready: boolean;
  /** Every failed check's problem, as a sentence naming the check. */
  problems: string[];
  checks: Record<string, CheckResult>;
}

export interface ResourceFreshness {
  resource: string;
  schedule: string;
  /** ISO time of the last successful pull, undefined when there was none yet. */
  lastSuccessAt: string | undefined;
}

export interface FreshnessInput {
  now: Date;
  /** When this process started: a resource never pulled yet counts from here. */
  startedAt: Date;
  resources: readonly ResourceFreshness[];
  /** How many schedule intervals a pull may be late before the daemon is not ready. */
  toleratedIntervals: number;
  /** IANA time zone the schedules run in (`timezone`). */
  timeZone: string;
}

const OK: CheckResult = { ok: true };

/** Milliseconds between two runs of a cron schedule in `timeZone`, measured from `from`. */
export function scheduleIntervalMs(schedule: string, from: Date, timeZone = 'UTC'): number {
  const runs = CronExpressionParser.parse(schedule, { currentDate: from, tz: timeZone });
  const first = runs.next().getTime();
  return runs.next().getTime() - first;
}

/**
 * Every scheduled resource had a successful pull within `toleratedIntervals` of its schedule's
 * interval (plus a minute for the run itself).
 */
export function pullFreshness(input: FreshnessInput): CheckResult {
  const late: string[] = [];
  for (const entry of input.resources) {
    const interval = scheduleIntervalMs(entry.schedule, input.now, input.timeZone);
    const allowedMs = input.toleratedIntervals * interval + 60_000;
    const since =
      entry.lastSuccessAt === undefined ? input.startedAt : new Date(entry.lastSuccessAt);
    if (input.now.getTime() - since.getTime() <= allowedMs) continue;
    const what =
      entry.lastSuccessAt === undefined
        ? 'no successful pull yet'
        : `last successful pull ${entry.lastSuccessAt}`;
    late.push(
      `${entry.resource}: ${what}, expected one every ${Math.round(allowedMs / 60_000)} minutes at most`,
    );
  }
  return late.length === 0 ? OK : { ok: false, problem: late.join('; ') };
}

/** Open work in one place: how much, and since when (ISO). */
export interface OpenWork {
  what: string;
  count: number;
  since: string | undefined;
}

/**
 * Nothing waits longer than `stalledMs`: the oldest record version not yet in the ERP, the
 * oldest queue job not yet done. Either one stuck means the daemon does not get its job done,
 * whatever the reason (an ERP that refuses, a reference never pulled, a platform that fails).
 */
export function deliveryStalls(now: Date, stalledMs: number, open: readonly OpenWork[]) {
  const stalled = open.filter(
    (work) => work.since !== undefined && now.getTime() - Date.parse(work.since) > stalledMs,
  );
  if (stalled.length === 0) return OK;
  const minutes = Math.round(stalledMs / 60_000);
  const problem = stalled
    .map((work) => `${work.count} ${work.what} open, the oldest since ${work.since}`)
    .join('; ');
  return {
    ok: false,
    problem: `${problem}: older than ${minutes} minutes; see \`homecare-sync status\` and \`queue list\``,
  };
}

/** Ready when every check is ok; the problems name the checks that are not. */
export function readinessOf(checks: Record<string, CheckResult>): Readiness {
  const problems = Object.entries(checks)
    .filter(([, check]) => !check.ok)
    .map(([name, check]) => `${name}: ${check.problem ?? 'failed'}`);
  return { ready: problems.length === 0, problems, checks };
}
