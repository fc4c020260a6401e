import type { Benchmark } from '../support/benchmark.js';
import { count, mb, rate, seconds } from '../support/format.js';
import { pullOnce, type PullFigures } from './pullOnce.js';

const SIZES = [50_000, 200_000] as const;

function describe(figures: PullFigures, print: (line: string) => void): void {
  const { baseline, peaks, marks } = figures;
  print(
    `${count(figures.count)} single orders: ${seconds(figures.ms)}, ${rate(figures.count, figures.ms)}` +
      ` (database and WAL on disk: ${mb(figures.databaseBytes)})`,
  );
  print(
    `  before: heapUsed ${mb(baseline.heapUsed)} (live ${mb(baseline.liveHeap)}), rss ${mb(baseline.rss)}`,
  );
  print(
    `  peak:   heapUsed ${mb(peaks.peakHeapUsed)}, rss ${mb(peaks.peakRss)} (sampled every 50 ms: ${count(peaks.samples)} samples)`,
  );
  print(`  peak heapUsed per quarter of the list: ${figures.stretchPeaks.map(mb).join(', ')}`);
  const at = (pick: (mark: PullFigures['marks'][number]) => number | undefined) =>
    marks.map((mark) => `${Math.round(mark.share * 100)}% ${mb(pick(mark))}`).join(', ');
  print(`  heapUsed at ${at((mark) => mark.heapUsed)}`);
  print(`  live heap after GC at ${at((mark) => mark.liveHeap)}`);
}

/** The peak heap of the long pull over the peak heap of the short one. */
function growth(short: PullFigures, long: PullFigures): string {
  return `x${(long.peaks.peakHeapUsed / short.peaks.peakHeapUsed).toFixed(2)}`;
}

export const pullBenchmark: Benchmark = {
  name: 'pull',
  description: 'one streamed list of single orders through client, puller and SQLite',
  async run(print) {
    const runs: PullFigures[] = [];
    for (const size of SIZES) {
      const figures = await pullOnce('B', size);
      describe(figures, print);
      runs.push(figures);
    }
    const [short, long] = runs;
    if (short === undefined || long === undefined) throw new Error('pull: a run is missing');
    const live = (run: PullFigures) => mb(run.marks.at(-1)?.liveHeap);
    return (
      `live heap at 90%: ${live(short)} at ${count(short.count)}, ${live(long)} at ${count(long.count)}; ` +
      `peak heapUsed ${mb(short.peaks.peakHeapUsed)} and ${mb(long.peaks.peakHeapUsed)} ` +
      `(${growth(short, long)} for x${long.count / short.count} records); ${rate(long.count, long.ms)} records`
    );
  },
};
