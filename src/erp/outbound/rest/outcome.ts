import { scrubText } from '../../../log/index.js';
import { classifyStatus, parseRetryAfter } from '../../../platform/index.js';
import { errorMessage } from '../../../shared/errors.js';
import { networkFailureOf, type NetworkFailure } from '../../../shared/networkFailure.js';
import type { DeliveryOutcome } from '../../adapter.js';
import { hideSecrets } from './auth.js';

/** One record's request, as a reason names it. */
export interface Attempt {
  resource: string;
  id: string;
  version: string;
  /** `POST http://erp.local/api/singleOrder`: no query, no user info. */
  label: string;
  /** Credentials to hide should the ERP echo them: those that cannot be part of words. */
  secrets: readonly string[];
  /** Values of the record sent (`valuesToScrub`): an ERP's answer may quote them in any form. */
  sentValues: readonly string[];
  /** The configuration path that sets this resource's URL and method, for hints. */
  targetPath: string;
}

/** What the ERP answered: the status, the headers that matter and the start of the body. */
export interface ErpAnswer {
  status: number;
  retryAfter: string | undefined;
  /** The ERP's `Date` header: a `Retry-After` date is read against the ERP's own clock. */
  date: string | undefined;
  body: string;
}

export const REASON_EXCERPT_CHARS = 500;
export const BODY_EXCERPT_CHARS = 4_000;

function subject(attempt: Attempt): string {
  return `${attempt.label} for ${attempt.resource} ${attempt.id} (version ${attempt.version})`;
}

function statusHint(status: number, attempt: Attempt): string {
  if (status === 401 || status === 403) {
    return 'the ERP refused the credentials; check erp.rest.auth';
  }
  if (status === 404 || status === 405) {
    return `the ERP has no such endpoint; check erp.rest.baseUrl and ${attempt.targetPath} (url, method)`;
  }
  if (status >= 300 && status < 400) {
    return `the ERP redirected; set erp.rest.baseUrl or ${attempt.targetPath}.url to the address it now uses`;
  }
  if (status === 408 || status === 429) return 'the ERP is busy or timed out; it will be retried';
  if (status >= 500) return 'the ERP failed; it will be retried';
  return 'the ERP refused the record; fix the record or the ERP side, then retry the dead letter';
}

function readableNow(date: string | undefined, now: Date): Date {
  const at = date === undefined ? Number.NaN : Date.parse(date);
  return Number.isNaN(at) ? now : new Date(at);
}

/** Decides what became of a record from the ERP's answer; `now` is our clock's time. */
export function outcomeOfAnswer(attempt: Attempt, answer: ErpAnswer, now: Date): DeliveryOutcome {
  const verdict = classifyStatus(answer.status);
  if (verdict === 'success') return { status: 'delivered' };
  const body = scrubText(hideSecrets(answer.body, attempt.secrets), attempt.sentValues).trim();
  const said = body === '' ? 'an empty body' : body.slice(0, REASON_EXCERPT_CHARS);
  const reason = hideSecrets(
    `${subject(attempt)}: the ERP answered HTTP ${answer.status} with ${said}; ${statusHint(answer.status, attempt)}`,
    attempt.secrets,
  );
  if (verdict === 'permanent') {
    const excerpt = body.slice(0, BODY_EXCERPT_CHARS);
    return { status: 'rejected', reason, httpStatus: answer.status, body: excerpt };
  }
  const retryAfterMs = parseRetryAfter(answer.retryAfter, readableNow(answer.date, now));
  return { status: 'retry', reason, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}

function errorCode(error: unknown): string {
  if (typeof error !== 'object' || error === null) return 'NETWORK';
  const { code, errors, cause } = error as { code?: unknown; errors?: unknown; cause?: unknown };
  if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
  // Node reports a refused connection to every address of a host as an AggregateError.
  if (Array.isArray(errors) && errors.length > 0) return errorCode(errors[0]);
  if (cause !== undefined) return errorCode(cause);
  return typeof code === 'string' ? code : 'NETWORK';
}

function networkHint(code: string, timeoutMs: number): string {
  const timedOut = `the ERP did not answer within ${timeoutMs} ms (erp.rest.timeoutMs); it will be retried`;
  const hints: Record<NetworkFailure, string> = {
    answerTimedOut: timedOut,
    connectTimedOut: timedOut,
    refused:
      'nothing accepted the connection; check erp.rest.baseUrl and that the ERP is running; it will be retried',
    unresolved: 'the host name did not resolve; check erp.rest.baseUrl and DNS; it will be retried',
    untrusted:
      "the ERP's TLS certificate is not trusted (set NODE_EXTRA_CA_CERTS); it will be retried",
    other: 'the connection failed or was cut; it will be retried',
  };
  return hints[networkFailureOf(code)];
}

/**
 * The request got no full answer: refused, reset, timed out. The ERP may or may not have the
 * record, so it is sent again; the idempotency key keeps the repeat from doubling it. Only a
 * request undici refuses to build (a header value it cannot send) fails the same way each time.
 */
export function outcomeOfFailure(
  attempt: Attempt,
  error: unknown,
  timeoutMs: number,
): DeliveryOutcome {
  const code = errorCode(error);
  const what = hideSecrets(errorMessage(error), attempt.secrets);
  if (code === 'UND_ERR_INVALID_ARG') {
    const reason = `${subject(attempt)}: the request cannot be sent (${what}); the id or version holds characters an HTTP header cannot carry`;
    return { status: 'rejected', reason };
  }
  const hint = networkHint(code, timeoutMs);
  return { status: 'retry', reason: `${subject(attempt)} failed (${code}: ${what}); ${hint}` };
}
