import type { Logger } from '../../log/index.js';
import { acknowledgedResource } from '../../queue/types.js';
import { runningJobsAbout } from '../../store/index.js';
import { errorMessage, failureLevel } from '../../shared/errors.js';
import { planOfJob } from '../jobPlan.js';
import type { PlanView } from '../plan.js';
import { isPushBackKind } from '../registry.js';
import { recordTriedChange } from './write.js';

interface InterruptedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
}

/** Whether the job writes to the platform: an acknowledgement or a kind the ERP reports. */
const writesToPlatform = (kind: string) =>
  acknowledgedResource(kind) !== undefined || isPushBackKind(kind);

/**
 * The changes of platform writes a stopped process left running, noted as tried
 * (recordTriedChange) when they are put back: the platform may have applied one and the answer
 * never been kept. The job reads the record back before it writes again (writeOnce), but the
 * next start's first pull may come first and list the version our write made; noted, that
 * version is known as our own and not handed to the ERP as a platform change. Creates are
 * left to their own look-up by key (createOnce); hand-overs to the ERP write nothing here. A job
 * whose plan fails (a payload its handler refuses too) is said in the log and left to its run.
 * Returns how many changes were noted.
 */
export function noteInterruptedWrites(
  view: PlanView,
  jobs: readonly InterruptedJob[],
  logger: Logger,
): number {
  let noted = 0;
  for (const job of jobs.filter((interrupted) => writesToPlatform(interrupted.kind))) {
    try {
      for (const write of planOfJob(job.kind, job.payload, view).writes) {
        if (write.id === undefined) continue;
        const change = { resource: write.resource, id: write.id, body: write.body };
        if (recordTriedChange(view.store, change)) noted += 1;
      }
    } catch (error) {
      // A full disk is said once by its own state (failureLevel: debug here), not per job.
      logger[failureLevel(error)](
        { jobId: job.id, kind: job.kind, err: errorMessage(error) },
        `queue: job ${job.id} was interrupted, and what it writes could not be noted: ${errorMessage(error)}; a pull before its next try may hand the version it made to the ERP`,
      );
    }
  }
  return noted;
}

/**
 * The changes of our platform writes under way to these records, noted as tried in the pull's
 * transaction before it records their versions: the platform may have applied one whose answer
 * has not come yet (a slow answer, a body still arriving), and the pull may list the version it
 * made. Noted, that version is known as our own and not handed to the ERP as a platform change;
 * the answer, once kept, is remembered as any answer. Only jobs of these records are read.
 */
export function noteWritesUnderWay(
  view: PlanView,
  resource: string,
  ids: readonly string[],
  logger: Logger,
): number {
  const jobs = runningJobsAbout(
    view.store,
    ids.map((id) => `${resource}:${id}`),
  );
  return noteInterruptedWrites(view, jobs, logger);
}
