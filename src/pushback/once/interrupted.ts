import { planOfJob } from '../jobPlan.js';
import type { PlanView } from '../plan.js';
import { recordTriedChange } from './write.js';

/**
 * The changes of platform writes a stopped process left running, noted as tried
 * (recordTriedChange) when they are put back: the platform may have applied one and the answer
 * never been kept. The job reads the record back before it writes again (writeOnce), but the
 * next start's first pull may come first and list the version our write made; noted, that
 * version is known as our own and not handed to the ERP as a platform change. Creates are
 * left to their own look-up by key (createOnce). Returns how many changes were noted.
 */
export function noteInterruptedWrites(
  view: PlanView,
  jobs: readonly { kind: string; payload: Record<string, unknown> }[],
): number {
  let noted = 0;
  for (const job of jobs) {
    for (const write of planOfJob(job.kind, job.payload, view).writes) {
      if (write.id === undefined) continue;
      const change = { resource: write.resource, id: write.id, body: write.body };
      if (recordTriedChange(view.store, change)) noted += 1;
    }
  }
  return noted;
}
