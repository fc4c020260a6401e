import { startSimulator } from '../../src/simulator/index.js';
import type { Benchmark } from '../support/benchmark.js';
import { count, mib, percentile, ratio } from '../support/format.js';
import { BACKLOG, runJob, TRICKLE, type CycleFigures } from './job.js';
import { ensureBuilt } from '../support/daemonCommand.js';
import { homecareSync, naiveScript, nodeRed, nodeRedVersion, type Program } from './programs.js';

/** Each program runs this often, interleaved, so the ranges show the machine's noise. */
const ROUNDS = Number(process.env['BENCH_CYCLE_ROUNDS'] ?? 2);

const ms = (value: number) => `${(value / 1000).toFixed(2)} s`;

function line(figures: CycleFigures): string {
  const { stats } = figures;
  return (
    `${figures.program}: ${figures.ordersPerSecond.toFixed(0)} orders/s (${count(BACKLOG)} in ${ms(figures.backlogMs)}), ` +
    `files ${ms(figures.timeline.files[0])} → ${ms(figures.timeline.files[1])}, ` +
    `PATCHes ${ms(figures.timeline.patches[0])} → ${ms(figures.timeline.patches[1])}, ` +
    `start-up ${ms(figures.startupMs)}, peak rss ${mib(stats?.peakRssBytes)}, cpu ${stats ? `${stats.cpuSeconds.toFixed(1)} s` : 'n/a'}, ` +
    `create → file p50 ${ms(percentile(figures.toFileMs, 0.5))} p95 ${ms(percentile(figures.toFileMs, 0.95))}, ` +
    `create → PATCHed p50 ${ms(percentile(figures.toPatchedMs, 0.5))} p95 ${ms(percentile(figures.toPatchedMs, 0.95))}`
  );
}

/** "a–b" over the runs of one program. */
function range(
  runs: readonly CycleFigures[],
  pick: (figures: CycleFigures) => number,
  show: (v: number) => string,
) {
  const values = runs.map(pick);
  const [low, high] = [Math.min(...values), Math.max(...values)];
  return show(low) === show(high) ? show(low) : `${show(low)}–${show(high)}`;
}

function compare(
  ours: readonly CycleFigures[],
  peer: readonly CycleFigures[],
  name: string,
): string {
  const rates = (runs: readonly CycleFigures[]) => runs.map((r) => r.ordersPerSecond);
  // Each round's runs are side by side: the ratio is taken per round.
  const ratios = ours.map((run, i) => run.ordersPerSecond / (rates(peer)[i] ?? Number.NaN));
  const shown = ratios.map((value) => ratio(value, 1)).join(', ');
  return `orders/s against ${name}: ${shown} (per round)`;
}

function summary(name: string, runs: readonly CycleFigures[]): string {
  return (
    `${name}: ${range(
      runs,
      (r) => r.ordersPerSecond,
      (v) => v.toFixed(0),
    )} orders/s, ` +
    `peak rss ${range(runs, (r) => r.stats?.peakRssBytes ?? 0, mib)}, cpu ${range(
      runs,
      (r) => r.stats?.cpuSeconds ?? 0,
      (v) => `${v.toFixed(1)} s`,
    )}, ` +
    `start-up ${range(runs, (r) => r.startupMs, ms)}, ` +
    `create → file p95 ${range(runs, (r) => percentile(r.toFileMs, 0.95), ms)}, ` +
    `create → PATCHed p95 ${range(runs, (r) => percentile(r.toPatchedMs, 0.95), ms)}`
  );
}

export const cycleBenchmark: Benchmark = {
  name: 'cycle',
  description:
    `the order-cycle job: ${count(BACKLOG)} created single orders waiting, then ${TRICKLE} created while running, ` +
    `each to a JSON file plus PATCH {status:1}, 1 s schedules; homecare-sync against a naive script and Node-RED`,
  async run(print) {
    ensureBuilt(print);
    const programs: Program[] = [homecareSync, nodeRed, naiveScript].filter((program) => {
      const why = program.unavailable();
      if (why !== undefined) print(`${program.name}: ${why}`);
      return why === undefined;
    });
    if (programs.includes(nodeRed)) print(`Node-RED ${nodeRedVersion()} from bench/peers/node-red`);
    const simulator = await startSimulator({ variant: 'B', port: 0, host: '127.0.0.1' });
    const runs = new Map<string, CycleFigures[]>(programs.map((p) => [p.name, []]));
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        for (const program of programs) {
          const figures = await runJob(simulator, program);
          runs.get(program.name)?.push(figures);
          print(`round ${round}: ${line(figures)}`);
        }
      }
    } finally {
      await simulator.close();
    }
    const ours = runs.get(homecareSync.name) ?? [];
    for (const [name, programRuns] of runs) print(summary(name, programRuns));
    const comparisons = [...runs]
      .filter(([name]) => name !== homecareSync.name)
      .map(([name, peerRuns]) => compare(ours, peerRuns, name));
    comparisons.forEach((text) => print(text));
    return `${summary(homecareSync.name, ours)}; ${comparisons.join('; ')}`;
  },
};
