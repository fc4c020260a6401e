import type { ResourceName } from '../contract/index.js';
import { errorMessage, PermanentError, TransientError } from '../shared/errors.js';
import { statusHint } from './retryable.js';

/** Who asked for what: enough for a person to find the record in a log line. */
export interface RequestContext {
  /** `PATCH /singleOrder/{id}`: the operation, never a URL with credentials in it. */
  label: string;
  resource: ResourceName;
  id: string | undefined;
  /** Removed from every excerpt, in case the platform echoes it. */
  secret: string;
}

const EXCERPT_CHARS = 500;

export function excerptOf(text: string, secret: string): string {
  const clean = secret === '' ? text : text.split(secret).join('***');
  return clean.slice(0, EXCERPT_CHARS);
}

function subject(context: RequestContext): string {
  const id = context.id === undefined ? '' : ` ${context.id}`;
  return `${context.label} (${context.resource}${id})`;
}

function where(context: RequestContext) {
  return { resource: context.resource, ...(context.id === undefined ? {} : { id: context.id }) };
}

export function statusError(
  context: RequestContext,
  status: number,
  transient: boolean,
  body: string,
  retryAfterMs: number | undefined,
): TransientError | PermanentError {
  const hint = statusHint(status, context.id !== undefined);
  const bodyExcerpt = excerptOf(body, context.secret);
  const message = `${subject(context)} answered HTTP ${status}; ${hint}`;
  const details = { ...where(context), status, bodyExcerpt, hint };
  if (!transient) return new PermanentError(message, { ...details, code: `HTTP_${status}` });
  return new TransientError(message, {
    ...details,
    code: `HTTP_${status}`,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, errors } = error as { code?: unknown; errors?: unknown };
  if (typeof code === 'string') return code;
  // Node reports a refused connection to every address of a host as an AggregateError.
  return Array.isArray(errors) ? errorCode(errors[0]) : undefined;
}

function networkHint(code: string): string {
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return 'the platform did not answer within platform.timeoutMs; it will be retried (raise timeoutMs if the platform is this slow)';
  }
  if (code === 'ECONNREFUSED') {
    return 'nothing accepted the connection; check platform.baseUrl and that the platform (or proxy) is reachable';
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return 'the host name did not resolve; check platform.baseUrl and DNS';
  }
  if (/CERT|SELF_SIGNED|ERR_TLS/.test(code)) {
    return "the platform's TLS certificate is not trusted; set platform.caFile to your CA bundle";
  }
  return 'the connection failed; it will be retried';
}

/** The request never got a full answer: refused, reset, timed out, cut off. */
export function networkError(context: RequestContext, cause: unknown): TransientError {
  const code = errorCode(cause) ?? 'NETWORK';
  const hint = networkHint(code);
  const what = excerptOf(errorMessage(cause), context.secret);
  return new TransientError(`${subject(context)} failed (${code}: ${what}); ${hint}`, {
    ...where(context),
    code: 'NETWORK',
    hint,
    cause,
  });
}

/** The answer was complete but not what the contract promises. */
export function badBodyError(
  context: RequestContext,
  status: number,
  problem: string,
  body = '',
  cause?: unknown,
): PermanentError {
  const hint =
    'the platform answered something other than the JSON its contract describes; report it to the platform operator with this excerpt';
  return new PermanentError(
    `${subject(context)} returned a body that cannot be used: ${problem}; ${hint}`,
    {
      ...where(context),
      code: 'BAD_BODY',
      status,
      bodyExcerpt: excerptOf(body, context.secret),
      hint,
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/** A list ended in the middle of its JSON: the connection was cut, so trying again may help. */
export function truncatedBodyError(
  context: RequestContext,
  status: number,
  cause: unknown,
): TransientError {
  const hint = 'the answer stopped in the middle; it will be retried';
  return new TransientError(`${subject(context)} returned an incomplete list; ${hint}`, {
    ...where(context),
    code: 'TRUNCATED_BODY',
    status,
    hint,
    cause,
  });
}
