/**
 * Mechanism: what every room shares (errors, the clock, bounded JSON, small helpers).
 *
 * Every error we raise carries a stable `code`, the context a person needs to find the record
 * (resource, id) and a hint saying what to do. Transient errors are retried; permanent ones are
 * dead-lettered or reported at once. Nothing else in the code decides retryability.
 */
import { codeHint, type ErrorCode } from './errorCodes.js';

export interface ErrorContext {
  resource?: string;
  id?: string;
  status?: number;
  bodyExcerpt?: string;
  hint?: string;
  cause?: unknown;
}

export abstract class HomecareError extends Error {
  /** One of the table in errorCodes.ts, which says what it means and what to do. */
  readonly code: ErrorCode;
  abstract readonly transient: boolean;
  readonly resource: string | undefined;
  readonly id: string | undefined;
  readonly status: number | undefined;
  readonly bodyExcerpt: string | undefined;
  /** What to do: the thrower's own words, else the table's for the code. */
  readonly hint: string;

  constructor(message: string, code: ErrorCode, context: ErrorContext = {}) {
    super(message, context.cause === undefined ? undefined : { cause: context.cause });
    this.name = new.target.name;
    this.code = code;
    this.resource = context.resource;
    this.id = context.id;
    this.status = context.status;
    this.bodyExcerpt = context.bodyExcerpt;
    this.hint = context.hint ?? codeHint(code);
  }
}

/** Worth another try later: network failures, 5xx, 408, 429, a full disk. */
export class TransientError extends HomecareError {
  readonly transient = true;
  readonly retryAfterMs: number | undefined;
  /**
   * `retryAfterMs` is a wait of our own (a breaker's pause), not one the other side asked for
   * (its `Retry-After`): a one-shot pass an operator starts may skip ours, never theirs.
   */
  readonly ownWait: boolean;
  /** Tried again, but it passes only once a person acts (frees disk space), not on its own. */
  readonly needsOperator: boolean;
  /**
   * A state the daemon watches and logs itself, once when it starts, once a minute while it
   * lasts and once when it ends (a full disk): where one operation meets it, it is no news.
   */
  readonly watched: boolean;
  /**
   * When the request that met this failure was sent (epoch ms, on the injected clock), where a
   * request did: a failure that arrives after its outage ended may belong to it.
   */
  readonly sentAt: number | undefined;

  constructor(
    message: string,
    context: ErrorContext & {
      code?: ErrorCode;
      retryAfterMs?: number;
      ownWait?: boolean;
      needsOperator?: boolean;
      watched?: boolean;
      sentAt?: number;
    } = {},
  ) {
    super(message, context.code ?? 'TRANSIENT', context);
    this.retryAfterMs = context.retryAfterMs;
    // A wrapper that passes its cause's wait on (a relabelled failure) passes on whose it is.
    const { cause } = context;
    const sameWait = cause instanceof TransientError && cause.retryAfterMs === this.retryAfterMs;
    this.ownWait = context.ownWait ?? (sameWait && cause.ownWait);
    this.needsOperator = context.needsOperator ?? false;
    this.watched = context.watched ?? false;
    this.sentAt = context.sentAt;
  }
}

/** Will fail the same way every time: a contract refusal, a 4xx, a body we cannot read. */
export class PermanentError extends HomecareError {
  readonly transient = false;

  constructor(message: string, context: ErrorContext & { code?: ErrorCode } = {}) {
    super(message, context.code ?? 'PERMANENT', context);
  }
}

/** The operator's setup is wrong (config, database file, folders); lists every problem found. */
export class SetupError extends HomecareError {
  readonly transient = false;
  readonly problems: readonly string[];

  constructor(
    message: string,
    problems: readonly string[] = [],
    context: ErrorContext & { code?: ErrorCode } = {},
  ) {
    super(message, context.code ?? 'SETUP', context);
    this.problems = problems;
  }
}

/**
 * How loud a failure is logged: `warn` for one that passes on its own (a 503, a time-out: the
 * next try is already planned), `error` for one that needs a person, `debug` for a watched
 * state's failure (its watch tells the person).
 */
export function failureLevel(error: unknown): 'debug' | 'warn' | 'error' {
  if (!(error instanceof TransientError)) return 'error';
  if (error.watched) return 'debug';
  return error.needsOperator ? 'error' : 'warn';
}

export function isTransient(error: unknown): boolean {
  return error instanceof HomecareError && error.transient;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A system error's code (`ENOENT`, `SQLITE_BUSY`), if it carries one. */
export function errorCode(error: unknown): string | undefined {
  const code: unknown = error instanceof Error && 'code' in error ? error.code : undefined;
  return typeof code === 'string' ? code : undefined;
}
