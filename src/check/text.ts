import type { KeptOnlineCheck } from '../store/index.js';
import type { OnlineCheckReport } from './online.js';
import { countsOf, exitCodeOf, STATUSES, type Verdict } from './verdict.js';

/** `14 pass, 1 warn, 0 fail, 2 skip`. */
export function countsText(verdicts: readonly Pick<Verdict, 'status'>[]): string {
  const counts = countsOf(verdicts);
  return STATUSES.map((status) => `${counts[status]} ${status}`).join(', ');
}

/** The verdicts as a table for people: status, check, time, what was seen; the hint below. */
export function verdictLines(verdicts: readonly Verdict[], indent = '  '): string[] {
  const width = Math.max(0, ...verdicts.map((v) => v.id.length));
  const msWidth = Math.max(0, ...verdicts.map((v) => `${v.ms} ms`.length));
  return verdicts.flatMap((v) => {
    const line = `${indent}${v.status.padEnd(4)}  ${v.id.padEnd(width)}  ${`${v.ms} ms`.padStart(msWidth)}  ${v.message}`;
    const pad = ' '.repeat(indent.length + 4 + 2 + width + 2 + msWidth + 2);
    return v.hint === null ? [line] : [line, `${pad}→ ${v.hint}`];
  });
}

/** What `check --online` prints for people. */
export function reportText(report: OnlineCheckReport, strict: boolean): string {
  const code = exitCodeOf(report.checks, strict);
  const kept = report.kept.ok
    ? 'kept in the database (status, /metrics)'
    : `not kept: ${report.kept.reason}`;
  return [
    `check --online, platform variant ${report.variant} as configured, at ${report.checkedAt}`,
    ...verdictLines(report.checks),
    `${countsText(report.checks)}; exit ${code}; ${kept}`,
    '',
  ].join('\n');
}

/**
 * `--json`: a stable schema. `checks[]` with `id`, `status` (pass | warn | fail | skip), `ms`,
 * `message`, `hint` (null when none), in the order they ran.
 */
export function reportJson(report: OnlineCheckReport, strict: boolean) {
  return {
    checkedAt: report.checkedAt,
    variant: report.variant,
    exitCode: exitCodeOf(report.checks, strict),
    summary: countsOf(report.checks),
    kept: report.kept.ok,
    ...(report.kept.ok ? {} : { notKept: report.kept.reason }),
    checks: report.checks.map(({ id, status, ms, message, hint }) => ({
      id,
      status,
      ms,
      message,
      hint,
    })),
  };
}

/** The last online check as `status --json` shows it: when, how many of each, every verdict. */
export function keptCheckSummary(kept: readonly KeptOnlineCheck[]) {
  if (kept.length === 0) return null;
  const checkedAt =
    kept
      .map((k) => k.checkedAt)
      .sort()
      .at(-1) ?? '';
  return { checkedAt, summary: countsOf(kept), checks: kept };
}

/** The last online check as `status` prints it: the counts, and what warned or failed. */
export function keptCheckLines(kept: readonly KeptOnlineCheck[]): string[] {
  const summary = keptCheckSummary(kept);
  if (summary === null) return ['online check: not run yet (homecare-sync check --online)'];
  const older = kept.some((k) => k.checkedAt !== summary.checkedAt)
    ? ' (some checks from earlier runs)'
    : '';
  const notable = kept.filter((k) => k.status === 'warn' || k.status === 'fail');
  return [
    `online check (check --online) at ${summary.checkedAt}${older}: ${countsText(kept)}`,
    ...verdictLines(notable, '  '),
  ];
}
