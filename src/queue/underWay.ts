import type { WriteUnderWay } from './types.js';

/**
 * The platform writes the running jobs of this process have sent and whose outcome is not
 * committed yet, by job: a pull meanwhile may list the version one of them made (its answer is
 * still coming, or kept but not committed), and must know it as ours. A job's writes are kept
 * from the moment it sends them until its outcome is written.
 */
export class WritesUnderWay {
  private readonly byJob = new Map<number, WriteUnderWay[]>();

  note(jobId: number, write: WriteUnderWay): void {
    const writes = this.byJob.get(jobId);
    if (writes === undefined) this.byJob.set(jobId, [write]);
    else writes.push(write);
  }

  settle(jobId: number): void {
    this.byJob.delete(jobId);
  }

  /** The writes under way to these records of `resource`. */
  about(resource: string, ids: readonly string[]): WriteUnderWay[] {
    if (this.byJob.size === 0) return [];
    const wanted = new Set(ids);
    return [...this.byJob.values()]
      .flat()
      .filter((write) => write.resource === resource && wanted.has(write.id));
  }
}
