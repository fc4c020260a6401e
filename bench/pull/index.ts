import type { Benchmark } from '../support/benchmark.js';
import { count, median, mib, rate, ratio, seconds } from '../support/format.js';
import { roundsTable } from '../support/rounds.js';
import { clientRead, floorRead, rawRead, RAW_LIMIT_BYTES, type ReadFigures } from './limits.js';
import { startOrderServer } from './orderProcess.js';
import type { PullFigures } from './pullOnce.js';
import { pullInProcess, type ChildWay } from './pullProcess.js';

/** The 1,000,000-record run takes several minutes and 6 GB of temp disk: asked for by name. */
const MILLION = process.env['BENCH_PULL_MILLION'] === '1';
const SIZES = MILLION ? [1_000_000, 50_000, 200_000] : [50_000, 200_000];
/** The pull's process runs as the container runs the daemon, or under tsx when asked. */
const CHILD_WAY: ChildWay = process.env['BENCH_PULL_TSX'] === '1' ? 'tsx' : 'container';
/** The size whose pull is judged against the storing floor, in ROUNDS interleaved rounds. */
const JUDGED_SIZE = 50_000;
const ROUNDS = Number(process.env['BENCH_PULL_ROUNDS'] ?? 3);
/** Issue 42's target: the pull at ≥ 0.8× the storing floor. */
const FLOOR_TARGET = 0.8;
/** Larger lists are not read whole: the body would pass V8's longest string. */
const RAW_UP_TO = 200_000;

function describe(figures: PullFigures, print: (line: string) => void): void {
  const { baseline, peaks, marks } = figures;
  print(
    `pull (client, puller, SQLite): ${seconds(figures.ms)}, ${rate(figures.count, figures.ms)}` +
      ` (database and WAL on disk: ${mib(figures.databaseBytes)})`,
  );
  const perRecord = (cpuMs: number) => `${((cpuMs * 1000) / figures.count).toFixed(0)} µs`;
  print(
    `  cpu:    ${seconds(figures.cpuMs)}, ${perRecord(figures.cpuMs)} per record (all threads of the process)`,
  );
  const { again } = figures;
  print(
    `  pulled again (every record a repeat): ${seconds(again.ms)}, ${rate(figures.count, again.ms)}, cpu ${perRecord(again.cpuMs)} per record`,
  );
  print(
    `  before: heapUsed ${mib(baseline.heapUsed)} (live ${mib(baseline.liveHeap)}), rss ${mib(baseline.rss)}`,
  );
  print(
    `  peak:   heapUsed ${mib(peaks.peakHeapUsed)}, rss ${mib(peaks.peakRss)} (sampled every 50 ms: ${count(peaks.samples)} samples)`,
  );
  print(`  peak heapUsed per quarter of the list: ${figures.stretchPeaks.map(mib).join(', ')}`);
  const at = (pick: (mark: PullFigures['marks'][number]) => number | undefined) =>
    marks.map((mark) => `${Math.round(mark.share * 100)}% ${mib(pick(mark))}`).join(', ');
  print(`  heapUsed at ${at((mark) => mark.heapUsed)}`);
  print(`  live heap after GC at ${at((mark) => mark.liveHeap)}`);
}

interface SizeFigures {
  /** One pull a round, interleaved with the floor's. */
  pulls: PullFigures[];
  /** The raw limit read before and after the pull; empty past RAW_UP_TO. */
  raw: ReadFigures[];
  client: ReadFigures;
  floors: ReadFigures[];
}

const perSecond = (figures: { count: number; ms: number }) => (figures.count * 1000) / figures.ms;
const microsPerRecord = (figures: { count: number; cpuMs: number }) =>
  (figures.cpuMs * 1000) / figures.count;

/** The faster raw reading: the ratio against it is the honest one on a noisy machine. */
function bestRaw(raw: readonly ReadFigures[]): number | undefined {
  return raw.length === 0 ? undefined : Math.max(...raw.map(perSecond));
}

/** The pull against its storing floor, round by round (each round's two ran one after the other). */
function againstFloor({ pulls, floors }: Pick<SizeFigures, 'pulls' | 'floors'>): number[] {
  return pulls.map((pull, round) => {
    const floor = floors[round];
    return floor === undefined ? Number.NaN : perSecond(pull) / perSecond(floor);
  });
}

function floorTable(figures: Pick<SizeFigures, 'pulls' | 'floors'>): string[] {
  const { pulls, floors } = figures;
  return roundsTable([
    { label: 'storing floor records/s', values: floors.map(perSecond), digits: 0 },
    { label: 'pull records/s', values: pulls.map(perSecond), digits: 0 },
    { label: 'pull ÷ storing floor', values: againstFloor(figures), digits: 2 },
    { label: 'storing floor CPU µs per record', values: floors.map(microsPerRecord), digits: 0 },
    { label: 'pull CPU µs per record', values: pulls.map(microsPerRecord), digits: 0 },
  ]);
}

/** Raw limit, client alone, then floor and pull `rounds` times, against one order server. */
async function measureSize(
  size: number,
  rounds: number,
  print: (line: string) => void,
): Promise<SizeFigures> {
  const server = await startOrderServer('B', size);
  try {
    print(`${count(size)} single orders:`);
    const raw: ReadFigures[] = [];
    const readRaw = async () => {
      if (size > RAW_UP_TO) return;
      const figures = await rawRead(server.url);
      if (figures.count !== size) throw new Error(`raw read ${figures.count} of ${size} records`);
      if (figures.bytes > RAW_LIMIT_BYTES) return;
      raw.push(figures);
      print(
        `raw limit (undici body, JSON.parse, no storage): ${seconds(figures.ms)}, ${rate(size, figures.ms)}` +
          ` (${mib(figures.bytes)} of JSON, rss after ${mib(figures.peakRss)})`,
      );
    };
    const client = await clientRead(server.url, 'B');
    if (client.count !== size) throw new Error(`the client read ${client.count} of ${size}`);
    print(
      `client list alone (streamed, no storage): ${seconds(client.ms)}, ${rate(size, client.ms)}`,
    );
    const floors: ReadFigures[] = [];
    const pulls: PullFigures[] = [];
    for (let round = 1; round <= rounds; round++) {
      const floor = await floorRead(server.url, 'B');
      if (floor.count !== size) throw new Error(`the floor read ${floor.count} of ${size}`);
      floors.push(floor);
      print(
        `${rounds > 1 ? `round ${round}: ` : ''}storing floor (the client's list, one SQLite row a record, nothing else): ` +
          `${seconds(floor.ms)}, ${rate(size, floor.ms)}, cpu ${microsPerRecord(floor).toFixed(0)} µs per record`,
      );
      const pull = await pullInProcess(server, 'B', size, CHILD_WAY, print);
      pulls.push(pull);
      describe(pull, print);
    }
    if (rounds > 1) floorTable({ pulls, floors }).forEach((line) => print(line));
    // Last, as a whole body in memory raises the rss for good: twice, for the range.
    await readRaw();
    await readRaw();
    const best = bestRaw(raw);
    const pull = median(pulls.map(perSecond));
    const floor = median(floors.map(perSecond));
    if (best === undefined) {
      print(
        `raw limit not measured above ${count(RAW_UP_TO)} records (the body passes V8's longest string)`,
      );
    } else {
      print(
        `ratio to the raw limit: pull ${ratio(pull, best)}, storing floor ${ratio(floor, best)}, client list ${ratio(perSecond(client), best)}` +
          ` (raw ${raw.map((r) => rate(size, r.ms)).join(' and ')}; the faster one counts)`,
      );
    }
    return { pulls, raw, client, floors };
  } finally {
    await server.stop();
  }
}

export const pullBenchmark: Benchmark = {
  name: 'pull',
  description: `streamed lists of single orders through client, puller and SQLite, against the raw limit${MILLION ? ' (with 1,000,000)' : ''}; the pull's process ${CHILD_WAY === 'tsx' ? 'under tsx' : 'as in the container (dist/, node flags of the Dockerfile)'}`,
  async run(print, note) {
    const runs: SizeFigures[] = [];
    for (const size of SIZES) {
      runs.push(await measureSize(size, size === JUDGED_SIZE ? ROUNDS : 1, print));
    }
    const judged = runs[SIZES.indexOf(JUDGED_SIZE)];
    if (judged !== undefined) {
      const against = median(againstFloor(judged));
      note({
        figure: `pull against its storing floor (${count(JUDGED_SIZE)} single orders)`,
        measured: `${median(judged.pulls.map(perSecond)).toFixed(0)}/s against ${median(judged.floors.map(perSecond)).toFixed(0)}/s (${against.toFixed(2)}×)`,
        target: `≥ ${FLOOR_TARGET}× the storing floor`,
        met: against >= FLOOR_TARGET,
      });
    }
    if (!MILLION)
      print(
        'BENCH_PULL_MILLION=1 adds a 1,000,000-record pull (5 to 10 minutes, 6 GB of temp disk)',
      );
    return runs
      .map(({ pulls, raw, floors }) => {
        const best = bestRaw(raw);
        const pull = median(pulls.map(perSecond));
        const against =
          best === undefined
            ? ''
            : `, ${ratio(pull, best)} of raw (storing floor ${ratio(median(floors.map(perSecond)), best)})`;
        const last = pulls.at(-1);
        const live = mib(last?.marks.at(-1)?.liveHeap);
        const size = count(last?.count ?? 0);
        return `${size}: ${count(pull)}/s, ${median(againstFloor({ pulls, floors })).toFixed(2)}× the storing floor${against}, live heap at 90% ${live}, peak rss ${mib(last?.peaks.peakRss)}`;
      })
      .join('; ');
  },
};
