import { stateLog, type Logger } from '../log/index.js';
import { HomecareError, TransientError } from '../shared/errors.js';
import { UNREACHABLE_CODE } from './unreachable.js';

/** Codes of a connection that stood and was cut before the answer was whole. */
const TIMED_OUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** The code of the network failure under `error` (undici's, Node's), through relabellings. */
function networkCode(error: HomecareError): string | undefined {
  const { cause } = error;
  if (cause instanceof HomecareError) return networkCode(cause);
  const code = (cause as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Which kind of platform outage a failure is (design.md, Wave 4): `HTTP 500`, `HTTP 503`, …,
 * `time-out` (connected, no answer within platform.timeoutMs), `reset` (the connection cut
 * before the answer was whole). Undefined for anything else, and for no connection at all
 * (refused, DNS, TLS): that is the platform breaker's outage, which the daemon logs itself.
 * A breaker's refusal is of the kind of the failure that opened it.
 */
export function outageKindOf(error: unknown): string | undefined {
  if (!(error instanceof TransientError) || error.watched) return undefined;
  if (error.code === 'RESOURCE_FAILING') return outageKindOf(error.cause);
  if (error.code === UNREACHABLE_CODE) return undefined;
  if (error.code === 'TRUNCATED_BODY') return 'reset';
  if (error.code === 'NETWORK')
    return TIMED_OUT.has(networkCode(error) ?? '') ? 'time-out' : 'reset';
  if (error.status !== undefined && error.code === `HTTP_${error.status}`) {
    return `HTTP ${error.status}`;
  }
  return undefined;
}

/** When the request that failed was sent (a breaker's refusal: the one that opened it). */
function sentAtOf(error: unknown): number | undefined {
  if (!(error instanceof TransientError)) return undefined;
  return error.code === 'RESOURCE_FAILING' ? sentAtOf(error.cause) : error.sentAt;
}

/** What waits for the platform: a list, a job, each by a name its next try finds again. */
export interface PlatformFailures {
  /**
   * `member` failed now. When that is a platform outage's kind (outageKindOf), it joins that
   * kind's state and true is answered: the caller logs the failure at debug only.
   */
  failed(member: string, error: unknown, fields: Record<string, unknown>, dueAt?: number): boolean;
  /** `member` got through: the last of a kind's members to do so ends its state. */
  passed(member: string): void;
}

/**
 * Each kind of platform outage as one state, whoever meets it (design.md, Wave 4): a platform
 * answering 500 to everything fails every list and every job alike, and says so once at warn
 * when the first meets it, again every 15 minutes while any still does, and once at info when
 * the last got through, instead of a state for the lists and one per error code for the jobs.
 * Built on the state log. A failure of a request sent before its kind's state ended (under way
 * when the platform came back, failing later; or a breaker it opened) is that outage's tail,
 * not a new one: no second warning.
 */
export function platformFailures(logger: Logger, now: () => number): PlatformFailures {
  const endedAt = new Map<string, number>();
  const log = stateLog({
    logger,
    now,
    causeField: 'outage',
    countField: 'waiting',
    ended: (kind) => endedAt.set(kind, now()),
    lines: (kind) => ({
      down: ({ problem, count }, again) =>
        again
          ? `still: platform requests fail (${kind}): ${count} list(s) and job(s) wait; the latest, ${problem}`
          : `platform requests fail (${kind}): ${problem}; lists and jobs that meet it wait and go on by themselves`,
      back: (since) => `platform requests go through again (failing with ${kind} since ${since})`,
    }),
  });
  return {
    failed(member, error, fields, dueAt) {
      const kind = outageKindOf(error);
      if (kind === undefined) return false;
      const sent = sentAtOf(error);
      const ended = endedAt.get(kind);
      if (sent !== undefined && ended !== undefined && sent < ended) return true;
      log.holds({
        cause: kind,
        member,
        level: 'warn',
        problem: error instanceof Error ? error.message : String(error),
        fields: { ...fields, code: (error as HomecareError).code },
        ...(dueAt === undefined ? {} : { dueAt }),
      });
      return true;
    },
    passed: (member) => log.ends(member),
  };
}
