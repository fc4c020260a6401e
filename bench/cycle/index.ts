import { startSimulator } from '../../src/simulator/index.js';
import type { Benchmark } from '../support/benchmark.js';
import { count, median, mib, percentile } from '../support/format.js';
import { BACKLOG, runJob, TRICKLE, type CycleFigures } from './job.js';
import { ensureBuilt } from '../support/daemonCommand.js';
import { homecareSync, naiveScript, nodeRed, nodeRedVersion, type Program } from './programs.js';
import { backlogCpuPerOrder, cpuPerOrder, cycleTable, cycleTargets } from './table.js';

/** Each program runs this often, interleaved: the table shows every round and the median. */
const ROUNDS = Number(process.env['BENCH_CYCLE_ROUNDS'] ?? 3);
/** BENCH_CYCLE_PROGRAMS=homecare-sync,naive: only these (by the start of their names), to profile. */
const ONLY = process.env['BENCH_CYCLE_PROGRAMS']?.toLowerCase().split(',');

const chosen = (program: Program) =>
  ONLY === undefined || ONLY.some((name) => program.name.toLowerCase().startsWith(name.trim()));

const ms = (value: number) => `${(value / 1000).toFixed(2)} s`;

function line(figures: CycleFigures): string {
  const { stats } = figures;
  return (
    `${figures.program}: ${figures.ordersPerSecond.toFixed(0)} orders/s (${count(BACKLOG)} in ${ms(figures.backlogMs)}), ` +
    `files ${ms(figures.timeline.files[0])} → ${ms(figures.timeline.files[1])}, ` +
    `PATCHes ${ms(figures.timeline.patches[0])} → ${ms(figures.timeline.patches[1])}, ` +
    `start-up ${ms(figures.startupMs)}, peak rss ${mib(stats?.peakRssBytes)}, cpu ${stats ? `${stats.cpuSeconds.toFixed(1)} s` : 'n/a'} ` +
    `(${cpuPerOrder(figures).toFixed(2)} ms per order; the backlog ${backlogCpuPerOrder(figures).toFixed(2)} ms), ` +
    `create → file p50 ${ms(percentile(figures.toFileMs, 0.5))} p95 ${ms(percentile(figures.toFileMs, 0.95))}, ` +
    `create → PATCHed p50 ${ms(percentile(figures.toPatchedMs, 0.5))} p95 ${ms(percentile(figures.toPatchedMs, 0.95))}`
  );
}

/** The final line: each program's medians. */
function summary(runs: ReadonlyMap<string, readonly CycleFigures[]>): string {
  return [...runs]
    .map(([name, programRuns]) => {
      const cpu = median(programRuns.map(cpuPerOrder)).toFixed(2);
      const rate = median(programRuns.map((r) => r.ordersPerSecond)).toFixed(0);
      const rss = mib(median(programRuns.map((r) => r.stats?.peakRssBytes ?? Number.NaN)));
      return `${name} ${cpu} ms CPU per order, ${rate} orders/s, peak rss ${rss}`;
    })
    .join('; ');
}

export const cycleBenchmark: Benchmark = {
  name: 'cycle',
  description:
    `the order-cycle job: ${count(BACKLOG)} created single orders waiting, then ${TRICKLE} created while running, ` +
    `each to a JSON file plus PATCH {status:1}, 1 s schedules; homecare-sync against a naive script and Node-RED, ` +
    `rounds: ${ROUNDS}, interleaved`,
  async run(print, note) {
    ensureBuilt(print);
    const programs: Program[] = [homecareSync, nodeRed, naiveScript]
      .filter(chosen)
      .filter((program) => {
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
    print(
      `CPU is user + system of the process (every thread) from its spawn to the last order's acknowledgement, over ${count(BACKLOG + TRICKLE)} orders; ratios are taken per round`,
    );
    cycleTable(runs, homecareSync.name).forEach((text) => print(text));
    cycleTargets(runs, homecareSync.name, nodeRed.name).forEach(note);
    return summary(runs);
  },
};
