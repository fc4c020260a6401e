import type { ResourceName } from '../contract/index.js';
import { scrubbedFromText } from '../log/index.js';
import { errorMessage, HomecareError, PermanentError, TransientError } from '../shared/errors.js';
import { networkFailureOf, type NetworkFailure } from '../shared/networkFailure.js';
import { statusHint } from './retryable.js';
import { cannotConnect, UNREACHABLE_CODE } from './unreachable.js';

/** Who asked for what: enough for a person to find the record in a log line. */
export interface RequestContext {
  /** `PATCH /singleOrder/{id}`: the operation, never a URL with credentials in it. */
  label: string;
  resource: ResourceName;
  id: string | undefined;
  /** Removed from every excerpt, in case the platform echoes it. */
  secret: string;
  /** When its latest try was sent (epoch ms): set by each try, carried by its transient errors. */
  sentAt?: number;
}

const EXCERPT_CHARS = 500;

/**
 * The start of an answer's body, without our key should the platform echo it: only a key that
 * cannot be part of words (scrubbedFromText), so that no word of the answer is taken apart.
 */
export function excerptOf(text: string, secret: string): string {
  const clean = scrubbedFromText(secret) ? text.split(secret).join('***') : text;
  return clean.slice(0, EXCERPT_CHARS);
}

function subject(context: RequestContext): string {
  const id = context.id === undefined ? '' : ` ${context.id}`;
  return `${context.label} (${context.resource}${id})`;
}

function where(context: RequestContext) {
  return { resource: context.resource, ...(context.id === undefined ? {} : { id: context.id }) };
}

function sentAt(context: RequestContext) {
  return context.sentAt === undefined ? {} : { sentAt: context.sentAt };
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
    ...sentAt(context),
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

const NETWORK_HINTS: Record<NetworkFailure, string> = {
  answerTimedOut:
    'the platform did not answer within platform.timeoutMs; it will be retried (raise timeoutMs if the platform is this slow)',
  connectTimedOut: 'the connection failed; it will be retried',
  refused:
    'nothing accepted the connection; check platform.baseUrl and that the platform (or proxy) is reachable',
  unresolved: 'the host name did not resolve; check platform.baseUrl and DNS',
  untrusted: "the platform's TLS certificate is not trusted; set platform.caFile to your CA bundle",
  other: 'the connection failed; it will be retried',
};

/**
 * The request never got a full answer: refused, reset, timed out, cut off. `UNREACHABLE` when no
 * connection could be made at all, `NETWORK` otherwise: only the first says the platform is down.
 */
export function networkError(context: RequestContext, cause: unknown): TransientError {
  const code = errorCode(cause) ?? 'NETWORK';
  const hint = NETWORK_HINTS[networkFailureOf(code)];
  const what = excerptOf(errorMessage(cause), context.secret);
  const unreachable = cannotConnect(code, errorMessage(cause));
  return new TransientError(`${subject(context)} failed (${code}: ${what}); ${hint}`, {
    ...where(context),
    ...sentAt(context),
    code: unreachable ? UNREACHABLE_CODE : 'NETWORK',
    hint,
    cause,
    // The daemon logs the outage as a state (one line when it starts, one when it ends).
    watched: unreachable,
  });
}

/**
 * Why a write that failed with `error` may still have been applied, in a few words for a
 * message: it went out and no answer said it was not taken on. A connection that failed after
 * it stood (cut, reset, our time-out waiting for the answer), a 5xx other than 503, a 2xx whose
 * body could not be read. Undefined when it surely was not applied: no connection was made, the
 * platform refused it (4xx), did not take it on (503 says the service is unavailable, 408 and
 * 429 that the request was not processed), or the error is not the platform's answer at all.
 */
export function unknownOutcome(error: unknown): string | undefined {
  if (!(error instanceof HomecareError)) return undefined;
  if (error.code === 'NETWORK')
    return `no whole answer came (${errorCode(error.cause) ?? 'NETWORK'})`;
  const { status } = error;
  if (status === undefined) return undefined;
  if (error.code === 'BAD_BODY' && status >= 200 && status < 300) {
    return `the platform answered HTTP ${status} with a body that could not be read`;
  }
  return status >= 500 && status !== 503 ? `the platform answered HTTP ${status}` : undefined;
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

/** Where a body is wrong: what came around that byte, for the excerpt. */
export interface BodySpot {
  /** The offset in the body of the first byte that is wrong. */
  at: number;
  problem: string;
  excerpt: string;
}

/** The answer came whole, but it is not JSON from the byte named on (a broken or cut-off text). */
export function invalidJsonError(
  context: RequestContext,
  status: number,
  spot: BodySpot,
  cause?: unknown,
): PermanentError {
  const hint =
    'the platform (or a proxy in between) sent an answer that is not JSON; report it to the platform operator with this excerpt';
  return new PermanentError(
    `${subject(context)}: the answer was not valid JSON at byte ${spot.at} (${spot.problem}); ${hint}`,
    {
      ...where(context),
      code: 'BAD_BODY',
      status,
      bodyExcerpt: excerptOf(spot.excerpt, context.secret),
      hint,
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/**
 * The connection ended before the answer did (closed or reset, or without the framing that would
 * say the answer was whole): trying again may help.
 */
export function listEndedEarlyError(
  context: RequestContext,
  status: number,
  bytes: number,
  cause: unknown,
): TransientError {
  const hint =
    'the platform or a proxy in between cut the connection; it will be retried (if it keeps happening, look at the proxy and the platform, not at the data)';
  return new TransientError(
    `${subject(context)}: the list ended early (connection closed after ${bytes} bytes); ${hint}`,
    { ...where(context), ...sentAt(context), code: 'TRUNCATED_BODY', status, hint, cause },
  );
}

/** A bound on one list and the config key that sets it, for the error that names both. */
export interface ListBound {
  limit: number;
  key: string;
}

/** How much a bound is raised by in the hint: enough for a first pull four times as large. */
const RAISE_FACTOR = 4;

/**
 * A list went past one of its bounds (records, bytes, seconds): the pull of that list stops and
 * fails, the others go on. Permanent: the same list would reach the same bound again.
 */
export function listBoundError(
  context: RequestContext,
  bound: ListBound,
  what: string,
): PermanentError {
  const raised = bound.limit * RAISE_FACTOR;
  const hint = `if the list is really this long (a first pull of a large catalogue), set ${bound.key}: ${raised} (or more) for that pull; otherwise the platform or a proxy sends a list without end, so report it to the platform operator`;
  return new PermanentError(
    `${subject(context)} stopped: ${what}, more than ${bound.key} = ${bound.limit} allows; its checkpoint stays where it was; ${hint}`,
    { ...where(context), code: 'LIST_BOUND', hint },
  );
}
