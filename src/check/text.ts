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
