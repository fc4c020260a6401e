import { z } from 'zod';
import { seededRandom } from './random.js';

/** A fault injected through the control API, for every API request under `path`. */
export const faultSpecSchema = z.strictObject({
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
  reset: z.boolean().optional(),
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
});

export type FaultSpec = z.output<typeof faultSpecSchema>;

export interface Fault extends FaultSpec {
  id: string;
  /** Requests it will still affect; null for all. */
  remaining: number | null;
  hits: number;
}

/** What a fault does to one request. */
export interface FaultEffect {
  latencyMs: number;
  error: { status: number; retryAfter: string | undefined; body: unknown } | undefined;
  reset: boolean;
  truncate: boolean;
  malformed: boolean;
  slowBodyMs: number;
  endless: { padBytes: number } | undefined;
}

const DEFAULT_ERROR_STATUS = 503;

/** The injected faults; each draws from its own seeded random source, so runs repeat. */
export class FaultSet {
  private faults: Array<Fault & { random: () => number }> = [];
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

  /** The effect on one request, taken from the first matching fault that fires. */
  take(
    method: string,
    path: string,
    query: Readonly<Record<string, string>> = {},
  ): FaultEffect | undefined {
    for (const fault of this.faults) {
      if (fault.remaining === 0 || !path.startsWith(fault.path)) continue;
      if (fault.method !== undefined && fault.method !== method) continue;
      if (fault.withQuery !== undefined && !Object.hasOwn(query, fault.withQuery)) continue;
      const errorRate = fault.errorRate ?? (fault.errorStatus === undefined ? undefined : 1);
      if (errorRate !== undefined && fault.random() >= errorRate) continue;
      if (fault.remaining !== null) fault.remaining -= 1;
      fault.hits += 1;
      return {
        latencyMs: fault.latencyMs ?? 0,
        error:
          errorRate === undefined
            ? undefined
            : {
                status: fault.errorStatus ?? DEFAULT_ERROR_STATUS,
                retryAfter: fault.retryAfter,
                body: fault.errorBody,
              },
        reset: fault.reset ?? false,
        truncate: fault.truncate ?? false,
        malformed: fault.malformed ?? false,
        slowBodyMs: fault.slowBodyMs ?? 0,
        endless: fault.endless === true ? { padBytes: fault.padBytes ?? 0 } : undefined,
      };
    }
    return undefined;
  }

  private view(fault: Fault & { random: () => number }): Fault {
    const visible: Partial<typeof fault> = { ...fault };
    delete visible.random;
    return visible as Fault;
  }
}
