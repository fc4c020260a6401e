import type { Logger } from '../../log/index.js';
import { handlerJob } from '../../queue/index.js';
import type { WriteUnderWay } from '../../queue/types.js';
import type { StoredJob } from '../../store/index.js';
import { errorMessage, failureLevel } from '../../shared/errors.js';
import { createHandlers } from '../handlers.js';
import { mirrorCore } from '../preview/mirrorCore.js';
import { previewOfJob, type PreviewContext } from '../preview/run.js';
import { recordTriedChange } from './write.js';

/**
 * The changes of platform writes a stopped process left running, noted as tried
 * (recordTriedChange) when they are put back: the platform may have applied one and the answer
 * never been kept. The job reads the record back before it writes again (writeOnce), but the
 * next start's first pull may come first and list the version our write made; noted, that
 * version is known as our own and not handed to the ERP as a platform change. What a job
 * writes is what its own handler writes, run against the noting core over the mirror
 * (previewOfJob): that reaches no network, so it is done before the first pull's answer comes.
 * Creates are left to their own look-up by key (createOnce); hand-overs to the ERP write
 * nothing here. Returns how many changes were noted.
 */
export async function noteInterruptedWrites(
  view: Omit<PreviewContext, 'reads'>,
  jobs: readonly StoredJob[],
  logger: Logger,
): Promise<number> {
  const handlers = createHandlers();
  const reads = mirrorCore(view.store, view.contract, view.clock);
  let noted = 0;
  for (const job of jobs.filter((interrupted) => Object.hasOwn(handlers, interrupted.kind))) {
    try {
      const { requests } = await previewOfJob(handlerJob(job), { ...view, reads });
      for (const write of requests) {
        if ('refused' in write || write.id === undefined) continue;
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
 * The changes of our platform writes under way to a pull's records (the queue's
 * WritesUnderWay), noted as tried in the pull's transaction before it records their versions:
 * the platform may have applied one whose answer has not come yet (a slow answer, a body still
 * arriving), and the pull may list the version it made. Noted, that version is known as our own
 * and not handed to the ERP as a platform change; the answer, once kept, is remembered as any.
 */
export function noteWritesUnderWay(
  store: PreviewContext['store'],
  writes: readonly WriteUnderWay[],
): number {
  return writes.filter((write) => recordTriedChange(store, write)).length;
}
