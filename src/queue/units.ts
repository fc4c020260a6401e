import type { ReadyJob } from '../store/index.js';
import {
  isBatchHandler,
  registeredHandler,
  type BatchHandler,
  type HandlerRegistry,
} from './types.js';

/**
 * What a worker's lane takes at once: one job, or the ready jobs of a batch kind handed over
 * together. `number` is the batch the jobs were in when a crash stopped their hand-over
 * (they go out again together, under that number); undefined for a new batch.
 */
export type WorkUnit =
  | { kind: string; ids: [number] }
  | { kind: string; ids: number[]; batch: { handler: BatchHandler; number: number | undefined } };

/**
 * Groups the jobs ready now into units, in the order of their first job: every job of a kind
 * without a batch handler alone; the jobs of a batch kind together, up to the handler's
 * `maxJobs`, and the jobs of an unfinished batch together again, whatever their number.
 */
export function workUnits(ready: readonly ReadyJob[], handlers: HandlerRegistry): WorkUnit[] {
  const units: WorkUnit[] = [];
  const filling = new Map<string, Extract<WorkUnit, { batch: unknown }>>();
  for (const job of ready) {
    const handler = registeredHandler(handlers, job.kind);
    if (handler === undefined || !isBatchHandler(handler)) {
      units.push({ kind: job.kind, ids: [job.id] });
      continue;
    }
    const key = job.batch === undefined ? job.kind : `${job.kind}#${job.batch}`;
    let unit = filling.get(key);
    if (unit === undefined || (job.batch === undefined && unit.ids.length >= handler.maxJobs)) {
      unit = { kind: job.kind, ids: [], batch: { handler, number: job.batch } };
      units.push(unit);
      filling.set(key, unit);
    }
    unit.ids.push(job.id);
  }
  return units;
}
