/**
 * The rules of `/healthz` and `/readyz` as pure functions of plain values (how fresh a pull
 * is, what stalls, whether the disk is full); app/daemonHealth.ts gathers those values from the
 * running daemon.
 */
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
  /** ISO time an operator resumed its pulls: counted from then when that is later. */
  countFrom?: string;
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
    const last =
      entry.lastSuccessAt === undefined ? input.startedAt : new Date(entry.lastSuccessAt);
    const resumed = entry.countFrom === undefined ? undefined : new Date(entry.countFrom);
    const since = resumed !== undefined && resumed > last ? resumed : last;
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

/** Whether the database can be written: not while writes fail for want of room. */
export function roomCheck(room: { fullSince: string | undefined; problem: string | undefined }) {
  if (room.fullSince === undefined) return OK;
  return { ok: false, problem: `since ${room.fullSince}: ${room.problem ?? 'the disk is full'}` };
}

/** Ready when every check is ok; the problems name the checks that are not. */
export function readinessOf(checks: Record<string, CheckResult>): Readiness {
  const problems = Object.entries(checks)
    .filter(([, check]) => !check.ok)
    .map(([name, check]) => `${name}: ${check.problem ?? 'failed'}`);
  return { ready: problems.length === 0, problems, checks };
}

/**
 * What each check's failure is called without the token: the detailed problems name files and
 * URLs of the installation, which are no one's business who merely reaches the port.
 */
const SHORT_PROBLEMS: Record<string, string> = {
  database: 'the database does not answer',
  storage: 'the disk is full',
  platform: 'the platform does not answer as expected',
  erp: 'the ERP cannot be reached',
  pulls: 'pulls are late',
  delivery: 'work has waited too long',
};

/** `readiness` with short problems only; the details are in the log and behind the token. */
export function publicReadiness(readiness: Readiness): Readiness {
  const checks = Object.fromEntries(
    Object.entries(readiness.checks).map(([name, check]): [string, CheckResult] => [
      name,
      check.ok ? { ok: true } : { ok: false, problem: SHORT_PROBLEMS[name] ?? 'failing' },
    ]),
  );
  return readinessOf(checks);
}

/**
 * How readiness changed. Ready: at the first look, or again (`notReadySince`). Not ready: it
 * stopped being so, or (`still`) the checks that fail are others now.
 */
export type ReadinessChange =
  | { ready: true; notReadySince?: string }
  | { ready: false; still: boolean; problems: readonly string[]; failing: readonly string[] };

/**
 * Readiness as one state (design.md, Wave 4: one line per state): told at the first look, when
 * the daemon stops being ready (with every failing check's full problem, which the public
 * answer leaves out), when the set of failing checks changes while it is not ready, and when it
 * is ready again. A check whose problem merely reads differently (counts, times) is no change.
 */
export function readinessChanges(tell: (change: ReadinessChange) => void, now: () => number) {
  let looked = false;
  let notReady: { failing: string; since: number } | undefined;
  return (readiness: Readiness): void => {
    const failing = Object.entries(readiness.checks)
      .filter(([, check]) => !check.ok)
      .map(([name]) => name);
    const first = !looked;
    looked = true;
    if (failing.length === 0) {
      if (!first && notReady === undefined) return;
      const since = notReady === undefined ? {} : { notReadySince: iso(notReady.since) };
      notReady = undefined;
      tell({ ready: true, ...since });
      return;
    }
    const key = failing.join(',');
    if (notReady?.failing === key) return;
    tell({ ready: false, still: notReady !== undefined, problems: readiness.problems, failing });
    notReady = { failing: key, since: notReady?.since ?? now() };
  };
}

const iso = (ms: number): string => new Date(ms).toISOString();
