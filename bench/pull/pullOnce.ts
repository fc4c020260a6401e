import { join } from 'node:path';
import type { Variant } from '../../src/contract/index.js';
import { createPlatformClient } from '../../src/platform/index.js';
import { systemClock } from '../../src/shared/clock.js';
import { openStore } from '../../src/store/index.js';
import { pullTarget, type PullSource, type PullSummary } from '../../src/pull/puller.js';
import { sqlitePullStore } from '../../src/pull/pullStore.js';
import { pullTargets } from '../../src/pull/targets.js';
import { sizeOnDisk } from '../support/databaseSize.js';
import { profiled } from '../support/profile.js';
import { liveHeap, readMemory, sampleMemory, type MemoryPeaks } from '../support/memory.js';
import { withTempFolder } from '../support/tempFolder.js';

/** Where along the list the heap is read: 10 %, 50 % and 90 % of the records. */
export const MARKS = [0.1, 0.5, 0.9] as const;
/** The list is cut into this many stretches, each with its own peak heapUsed. */
const STRETCHES = 4;

export interface MarkReading {
  share: number;
  heapUsed: number;
  /** After a forced full collection; undefined without --expose-gc. */
  liveHeap: number | undefined;
}

export interface PullFigures {
  count: number;
  ms: number;
  /** CPU time of the process (every thread, user and system) during the pull. */
  cpuMs: number;
  summary: PullSummary;
  baseline: { heapUsed: number; rss: number; liveHeap: number | undefined };
  peaks: MemoryPeaks;
  /** Peak heapUsed in each quarter of the list (the last one includes the final commit). */
  stretchPeaks: number[];
  marks: MarkReading[];
  databaseBytes: number;
  /** The same list pulled again at once: every record a version the ledger holds. */
  again: { ms: number; cpuMs: number };
}

/** Wall and CPU time (every thread of the process, user and system) of `work`. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; cpuMs: number; result: T }> {
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = await work();
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  return { ms, cpuMs: (cpu.user + cpu.system) / 1000, result };
}

/** The real client as the puller's source, counting the records it hands over. */
function countingSource(source: PullSource, onRecord: (seen: number) => void): PullSource {
  let seen = 0;
  return {
    platformNow: () => source.platformNow(),
    skewMs: () => source.skewMs(),
    steppedBackMs: () => source.steppedBackMs(),
    async *listItems(resource, query, bounds) {
      for await (const item of source.listItems(resource, query, bounds)) {
        onRecord(++seen);
        yield item;
      }
    },
  };
}

function checkOutcome(count: number, summary: PullSummary): void {
  const problems = [
    summary.ok ? undefined : `the pull failed: ${summary.error ?? 'no reason given'}`,
    summary.fetched === count ? undefined : `fetched ${summary.fetched} of ${count}`,
    summary.fresh === count ? undefined : `stored ${summary.fresh} new of ${count}`,
    summary.quarantined === 0 ? undefined : `${summary.quarantined} records quarantined`,
  ].filter((problem) => problem !== undefined);
  if (problems.length > 0)
    throw new Error(`pull of ${count} single orders: ${problems.join('; ')}`);
}

/**
 * One incremental pull of one single-order target, `count` records long (served by `server`), by the daemon's own
 * parts: the platform client (undici, streamed JSON), the puller and the SQLite store on disk
 * (WAL, synchronous=FULL, 500 records per transaction as by default); then the same list once
 * more, every record a repeat.
 */
export async function pullOnce(
  server: { url: string },
  variant: Variant,
  count: number,
): Promise<PullFigures> {
  return withTempFolder(async (folder) => {
    const path = join(folder, 'homecare-sync.db');
    const store = openStore({ path, clock: systemClock });
    const client = createPlatformClient({
      baseUrl: server.url,
      apiKey: 'bench-key',
      variant,
      timeoutMs: 30_000,
      concurrency: 4,
      clock: systemClock,
    });
    try {
      const target = pullTargets(client.contract).find((t) => t.resource === 'singleOrder');
      if (target === undefined) throw new Error(`variant ${variant} lists no single orders`);
      const thresholds = MARKS.map((share) => Math.ceil(share * count));
      const marks: MarkReading[] = [];
      const baselineLive = liveHeap();
      const baseline = { ...readMemory(), liveHeap: baselineLive };
      const sampler = sampleMemory(50);
      const stretchPeaks: number[] = [];
      const stretchLength = Math.ceil(count / STRETCHES);
      const source = countingSource(client, (seen) => {
        sampler.poll();
        if (seen % stretchLength === 0 && seen < count) stretchPeaks.push(sampler.stretchPeak());
        const at = thresholds.indexOf(seen);
        const share = MARKS[at];
        if (share === undefined) return;
        const { heapUsed } = readMemory();
        marks.push({ share, heapUsed, liveHeap: liveHeap() });
      });
      const pullDeps = {
        store: sqlitePullStore(store, () => undefined),
        clock: systemClock,
        settings: { overlapSeconds: 120, createdLookbackDays: 30, batchSize: 500 },
      };
      // BENCH_PULL_PROFILE=<folder>: a CPU profile of the pull (the child inherits the variable).
      const {
        ms,
        cpuMs,
        result: summary,
      } = await timed(() =>
        profiled(process.env['BENCH_PULL_PROFILE'], `pull-${count}`, () =>
          pullTarget({ ...pullDeps, source }, target),
        ),
      );
      stretchPeaks.push(sampler.stretchPeak());
      const peaks = sampler.stop();
      checkOutcome(count, summary);
      const databaseBytes = await sizeOnDisk(path);
      const again = await timed(() => pullTarget({ ...pullDeps, source: client }, target));
      if (!again.result.ok || again.result.repeats !== count) {
        throw new Error(`pulled again: ${again.result.repeats} of ${count} records were repeats`);
      }
      return {
        count,
        ms,
        cpuMs,
        summary,
        baseline,
        peaks,
        stretchPeaks,
        marks,
        databaseBytes,
        again: { ms: again.ms, cpuMs: again.cpuMs },
      };
    } finally {
      await client.close();
      store.close();
    }
  });
}
