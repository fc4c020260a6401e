import type { OnlineCheckStatus, OnlineCheckVerdict } from '../store/index.js';

export type CheckStatus = OnlineCheckStatus;
export type Verdict = OnlineCheckVerdict;

/** What one check found, before the runner adds its id and time. */
export interface Outcome {
  status: CheckStatus;
  /** What was seen, in one sentence. */
  message: string;
  /** What to do about it; none where nothing is to be done. */
  hint?: string;
  /** A skip because a prerequisite did not pass: what needs this one is not tried either. */
  blocked?: boolean;
}

const outcome =
  (status: CheckStatus) =>
  (message: string, hint?: string): Outcome =>
    hint === undefined ? { status, message } : { status, message, hint };

export const pass = outcome('pass');
export const warn = outcome('warn');
export const fail = outcome('fail');
/** Not applicable here (http has no TLS, no proxy is set): blocks nothing. */
export const skip = outcome('skip');

export const STATUSES: readonly CheckStatus[] = ['pass', 'warn', 'fail', 'skip'];

/** 0 when nothing failed, 1 on a failure, 2 on a warning with `--strict`. */
export function exitCodeOf(verdicts: readonly Verdict[], strict: boolean): 0 | 1 | 2 {
  if (verdicts.some((v) => v.status === 'fail')) return 1;
  if (strict && verdicts.some((v) => v.status === 'warn')) return 2;
  return 0;
}

/** How many checks ended in each status. */
export function countsOf(
  verdicts: readonly { status: CheckStatus }[],
): Record<CheckStatus, number> {
  const counts = { pass: 0, warn: 0, fail: 0, skip: 0 };
  for (const verdict of verdicts) counts[verdict.status] += 1;
  return counts;
}
