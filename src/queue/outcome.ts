import { retryDelay } from '../platform/index.js';
import { errorMessage, HomecareError, PermanentError, TransientError } from '../shared/errors.js';
import type { JobFailure, NewDeadLetter } from '../store/index.js';

/** `retry` in the config: `maxAttempts` counts every try, the first one included. */
export interface RetrySettings {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * What becomes of a job whose try failed. A retry's `theirs` says the wait is the other side's
 * `Retry-After`, which even an operator's one-shot pass honours; our own back-off it skips.
 */
export type FailureOutcome =
  | { kind: 'retry'; failure: JobFailure; delayMs: number; theirs: boolean }
  | { kind: 'dead'; failure: JobFailure; letter: NewDeadLetter };

/**
 * Decides from what a handler threw. A PermanentError is dead at once. A TransientError, and
 * anything else (a bug may pass; the caller logs its stack), is tried again after a capped,
 * fully jittered exponential back-off, or after the `Retry-After` the platform asked for, never
 * sooner, until `maxAttempts` tries have failed.
 */
export function failureOutcome(
  error: unknown,
  attemptsBefore: number,
  retry: RetrySettings,
  random: () => number,
): FailureOutcome {
  const attempts = attemptsBefore + 1;
  const status = error instanceof HomecareError ? error.status : undefined;
  const message = errorMessage(error);
  const failure: JobFailure = { attempts, error: message, status };
  if (error instanceof PermanentError) {
    return { kind: 'dead', failure, letter: letterOf(message, error) };
  }
  if (attempts >= retry.maxAttempts) {
    const reason = `gave up after ${attempts} tries (retry.maxAttempts): ${message}`;
    return { kind: 'dead', failure, letter: letterOf(reason, error) };
  }
  if (error instanceof TransientError && error.retryAfterMs !== undefined) {
    return { kind: 'retry', failure, delayMs: error.retryAfterMs, theirs: !error.ownWait };
  }
  return { kind: 'retry', failure, delayMs: backoffMs(retry, attempts, random), theirs: false };
}

/**
 * The wait after the `failedTries`-th failed try: the project's one back-off (platform reads
 * use it too), without its own try limit, since the queue counts tries itself.
 */
export function backoffMs(retry: RetrySettings, failedTries: number, random: () => number): number {
  const policy = { ...retry, attempts: Number.POSITIVE_INFINITY };
  return retryDelay(policy, failedTries + 1, random) ?? retry.maxDelayMs;
}

function letterOf(reason: string, error: unknown): NewDeadLetter {
  if (!(error instanceof HomecareError)) return { reason };
  return { reason, httpStatus: error.status, bodyExcerpt: error.bodyExcerpt };
}
