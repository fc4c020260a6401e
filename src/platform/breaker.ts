import type { ResourceName } from '../contract/index.js';
import type { Clock } from '../shared/clock.js';
import type { ErrorCode } from '../shared/errorCodes.js';
import { errorMessage, TransientError } from '../shared/errors.js';
import type { RequestContext } from './errors.js';
import type { PreparedRequest } from './prepare.js';
import { UNREACHABLE_CODE } from './unreachable.js';

/** How long requests are not sent after a failure opened a breaker. */
export const BREAKER_PAUSE_MS = 30_000;

/** What an open breaker says: why the request was not sent, and what to look at. */
interface Refusal {
  code: ErrorCode;
  why: string;
  hint: string;
  /** Whether the daemon logs this state itself (its outage log): callers then log at debug. */
  watched: boolean;
}

/** Since when no connection to the platform could be made, and the last reason. */
export interface Outage {
  since: number;
  reason: string;
}

/**
 * One circuit breaker. A request that failed for good (its own retries spent) opens it: for
 * BREAKER_PAUSE_MS, or as long as the platform's `Retry-After` asked when that is longer, every
 * request it guards fails at once, without spending its retries. The first request after the
 * pause is sent; a success closes it.
 */
class Breaker {
  private openUntil = 0;
  private lastFailure: unknown;
  /** Set by the first failure after a success, cleared by the next success. */
  down: Outage | undefined;

  constructor(private readonly refusal: Refusal) {}

  check(context: RequestContext, now: number): void {
    const waitMs = this.openUntil - now;
    if (waitMs <= 0) return;
    const id = context.id === undefined ? '' : ` ${context.id}`;
    const until = new Date(this.openUntil).toISOString();
    throw new TransientError(
      `${context.label} (${context.resource}${id}) not sent: ${this.refusal.why} (${errorMessage(this.lastFailure)}); requests resume at ${until}`,
      {
        // What opened it: the kind of outage the refusal belongs to.
        cause: this.lastFailure,
        resource: context.resource,
        ...(context.id === undefined ? {} : { id: context.id }),
        code: this.refusal.code,
        hint: this.refusal.hint,
        retryAfterMs: waitMs,
        ownWait: true,
        watched: this.refusal.watched,
      },
    );
  }

  open(error: unknown, now: number): void {
    const asked = error instanceof TransientError && !error.ownWait ? error.retryAfterMs : 0;
    this.openUntil = now + Math.max(BREAKER_PAUSE_MS, asked ?? 0);
    this.lastFailure = error;
    this.down = { since: this.down?.since ?? now, reason: errorMessage(error) };
  }

  close(): void {
    this.openUntil = 0;
    this.down = undefined;
  }
}

const PLATFORM_REFUSAL: Refusal = {
  code: 'PLATFORM_UNREACHABLE',
  why: 'the platform was unreachable a moment ago',
  hint: 'check that the platform (or the proxy in between) is up and reachable',
  watched: true,
};

function resourceRefusal(resource: ResourceName): Refusal {
  return {
    code: 'RESOURCE_FAILING',
    why: `the ${resource} list failed a moment ago`,
    hint: `the platform failed the ${resource} list (time-out or 5xx) while the other resources go on; if it persists, ask the platform operator about this list, or raise platform.timeoutMs if it is only slow`,
    watched: false,
  };
}

const isList = (request: PreparedRequest): boolean => request.operation.kind === 'list';

/**
 * The breakers of every read. One for the whole platform, opened only when no connection could
 * be made (UNREACHABLE): then every list would fail alike, so a pass over every list ends after
 * the first one, and an outage is one failure, not one per resource. One per resource, opened
 * by a failure of its lists (time-out, reset, 5xx, a cut body): that list's other status filters
 * fail at once instead of each spending its retries, while the other resources go on. A record's
 * failure (a get by id or key) opens neither: it may be that record.
 */
export class Breakers {
  private readonly platform = new Breaker(PLATFORM_REFUSAL);
  private readonly lists = new Map<ResourceName, Breaker>();

  /** `outageChanged` hears the platform's outage start and end, as they happen. */
  constructor(
    private readonly clock: Clock,
    private readonly outageChanged: () => void = () => undefined,
  ) {}

  /** Whether the platform is unreachable now: since when, and why (the daemon logs it). */
  outage(): Outage | undefined {
    return this.platform.down;
  }

  /** Throws instead of sending while a breaker guarding this request is open. */
  check(request: PreparedRequest): void {
    const { context } = request;
    const now = this.clock.now().getTime();
    this.platform.check(context, now);
    if (isList(request)) this.lists.get(context.resource)?.check(context, now);
  }

  /** Notes how a request ended after its retries (`undefined`: it succeeded). */
  settled(request: PreparedRequest, error: unknown): void {
    const { resource } = request.context;
    const wasDown = this.platform.down !== undefined;
    if (error === undefined) {
      this.platform.close();
      if (isList(request)) this.lists.get(resource)?.close();
      if (wasDown) this.outageChanged();
      return;
    }
    if (!(error instanceof TransientError)) return;
    const now = this.clock.now().getTime();
    if (error.code === UNREACHABLE_CODE) {
      this.platform.open(error, now);
      if (!wasDown) this.outageChanged();
    } else if (isList(request)) this.listBreaker(resource).open(error, now);
  }

  private listBreaker(resource: ResourceName): Breaker {
    let breaker = this.lists.get(resource);
    if (breaker === undefined) {
      breaker = new Breaker(resourceRefusal(resource));
      this.lists.set(resource, breaker);
    }
    return breaker;
  }
}
