import { z } from 'zod';
import { seededRandom } from './random.js';

/** A fault injected through the control API, for every API request under `path`. */
export const faultSpecSchema = z
  .strictObject({
    path: z.string().startsWith('/').default('/'),
    method: z
      .string()
      .transform((m) => m.toUpperCase())
      .optional(),
    latencyMs: z.number().int().min(0).optional(),
    errorRate: z.number().min(0).max(1).optional(),
    errorStatus: z.number().int().min(400).max(599).optional(),
    retryAfter: z.string().optional(),
    /** The JSON body of the injected error, instead of the simulator's own. */
    errorBody: z.unknown().optional(),
    /** Only requests that carry this query parameter (e.g. `updatedAfter`). */
    withQuery: z.string().min(1).optional(),
    /** Cuts the connection before the request is processed: nothing applies, nothing answers. */
    reset: z.boolean().optional(),
    /**
     * Processes the request (a write applies, a list is read) and then cuts the connection before
     * any byte of the answer: the lost answer after which a client cannot tell whether its write
     * took effect.
     */
    resetAfterProcessing: z.boolean().optional(),
    truncate: z.boolean().optional(),
    malformed: z.boolean().optional(),
    slowBodyMs: z.number().int().min(0).optional(),
    /**
     * A list answer that never ends: its records again and again under new ids, until the client
     * goes away. Served to loopback clients only, so a simulator reachable from elsewhere cannot
     * be made to stream without end to them.
     */
    endless: z.boolean().optional(),
    /** With `endless`: bytes of padding added to each record, for large records. */
    padBytes: z
      .number()
      .int()
      .min(0)
      .max(64 * 1024 * 1024)
      .optional(),
    times: z.number().int().min(1).optional(),
  })
  .refine((spec) => spec.reset !== true || spec.resetAfterProcessing !== true, {
    message: 'reset and resetAfterProcessing exclude each other: a connection is cut only once',
    path: ['resetAfterProcessing'],
  });

export type FaultSpec = z.output<typeof faultSpecSchema>;

export interface Fault extends FaultSpec {
  id: string;
  /** Requests it will still fire on; null for all. */
  remaining: number | null;
  hits: number;
}

/** What a fault does to one request. */
export interface FaultEffect {
  latencyMs: number;
  error: { status: number; retryAfter: string | undefined; body: unknown } | undefined;
  /** Cut the connection before the request is processed. */
  reset: boolean;
  /** Process the request, then cut the connection instead of answering. */
  resetAfterProcessing: boolean;
  truncate: boolean;
  malformed: boolean;
  slowBodyMs: number;
  endless: { padBytes: number } | undefined;
}

const DEFAULT_ERROR_STATUS = 503;

type LiveFault = Fault & { random: () => number };

function matches(
  fault: LiveFault,
  method: string,
  path: string,
  query: Readonly<Record<string, string>>,
): boolean {
  if (fault.remaining === 0 || !path.startsWith(fault.path)) return false;
  if (fault.method !== undefined && fault.method !== method) return false;
  return fault.withQuery === undefined || Object.hasOwn(query, fault.withQuery);
}

/** `errorStatus` alone means every request. */
function errorRateOf(fault: FaultSpec): number | undefined {
  return fault.errorRate ?? (fault.errorStatus === undefined ? undefined : 1);
}

/**
 * The fault's own draw: with an error rate it fires on that share of the requests it matches,
 * without one on all of them. Every matching fault draws, whatever the others drew, so each
 * fault's pattern depends only on the seed and the requests it matches.
 */
function fires(fault: LiveFault): boolean {
  const errorRate = errorRateOf(fault);
  return errorRate === undefined || fault.random() < errorRate;
}

/** Whether the fault changes what the client gets, beyond delaying it. */
function spoilsAnswer(fault: FaultSpec): boolean {
  return (
    errorRateOf(fault) !== undefined ||
    fault.reset === true ||
    fault.resetAfterProcessing === true ||
    fault.truncate === true ||
    fault.malformed === true ||
    fault.endless === true
  );
}

const sum = (faults: readonly FaultSpec[], delay: (f: FaultSpec) => number | undefined): number =>
  faults.reduce((total, fault) => total + (delay(fault) ?? 0), 0);

/** A cut connection carries no answer, so an error rate on such a fault only sets its share. */
const cuts = (fault: FaultSpec): boolean =>
  fault.reset === true || fault.resetAfterProcessing === true;

/**
 * What the fired faults do together. Their delays add up; one answer can only go wrong one way,
 * so the first fired fault that spoils it (an error, a reset, a truncated, malformed or endless
 * body) decides how.
 */
function combined(fired: readonly FaultSpec[]): FaultEffect {
  const spoiler = fired.find(spoilsAnswer);
  return {
    latencyMs: sum(fired, (f) => f.latencyMs),
    slowBodyMs: sum(fired, (f) => f.slowBodyMs),
    error:
      spoiler === undefined || errorRateOf(spoiler) === undefined || cuts(spoiler)
        ? undefined
        : {
            status: spoiler.errorStatus ?? DEFAULT_ERROR_STATUS,
            retryAfter: spoiler.retryAfter,
            body: spoiler.errorBody,
          },
    reset: spoiler?.reset ?? false,
    resetAfterProcessing: spoiler?.resetAfterProcessing ?? false,
    truncate: spoiler?.truncate ?? false,
    malformed: spoiler?.malformed ?? false,
    endless: spoiler?.endless === true ? { padBytes: spoiler.padBytes ?? 0 } : undefined,
  };
}

/** The injected faults; each draws from its own seeded random source, so runs repeat. */
export class FaultSet {
  private faults: LiveFault[] = [];
  private counter = 0;

  constructor(private readonly seed: number) {}

  add(spec: FaultSpec): Fault {
    this.counter += 1;
    const fault = {
      ...spec,
      id: `fault-${this.counter}`,
      remaining: spec.times ?? null,
      hits: 0,
      random: seededRandom(this.seed + this.counter),
    };
    this.faults.push(fault);
    return this.view(fault);
  }

  list(): Fault[] {
    return this.faults.map((f) => this.view(f));
  }

  remove(id: string): boolean {
    const before = this.faults.length;
    this.faults = this.faults.filter((f) => f.id !== id);
    return this.faults.length < before;
  }

  clear(): void {
    this.faults = [];
  }

  /** The effect on one request of every matching fault that fires; undefined when none does. */
  take(
    method: string,
    path: string,
    query: Readonly<Record<string, string>> = {},
  ): FaultEffect | undefined {
    const fired: LiveFault[] = [];
    for (const fault of this.faults) {
      if (!matches(fault, method, path, query) || !fires(fault)) continue;
      if (fault.remaining !== null) fault.remaining -= 1;
      fault.hits += 1;
      fired.push(fault);
    }
    return fired.length === 0 ? undefined : combined(fired);
  }

  private view(fault: LiveFault): Fault {
    const visible: Partial<typeof fault> = { ...fault };
    delete visible.random;
    return visible as Fault;
  }
}
