import type { TargetFigure } from '../support/benchmark.js';
import { median, percentile } from '../support/format.js';
import { roundsTable, type RoundsRow } from '../support/rounds.js';
import { BACKLOG, TRICKLE, type CycleFigures } from './job.js';

/** Every order of the job: the backlog and the trickle. */
const ORDERS = BACKLOG + TRICKLE;
const MIB = 1024 * 1024;
/** Issue 42's targets: CPU per order ≤ Node-RED's ÷ 1.5, orders/s ≥ 1.5× Node-RED's. */
const AGAINST_NODE_RED = 1.5;
const PEAK_RSS_LIMIT_MIB = 150;

/**
 * CPU milliseconds (user + system, every thread) of the whole job per order: from the spawn,
 * start-up included, to the last trickled order's acknowledgement, over all 2,200 orders.
 */
export const cpuPerOrder = (figures: CycleFigures): number =>
  figures.stats === undefined ? Number.NaN : (figures.stats.cpuSeconds * 1000) / ORDERS;

/** The same up to the backlog's last acknowledgement, over the backlog's orders. */
export const backlogCpuPerOrder = (figures: CycleFigures): number =>
  figures.backlogStats === undefined
    ? Number.NaN
    : (figures.backlogStats.cpuSeconds * 1000) / BACKLOG;

const peakRss = (figures: CycleFigures) => (figures.stats?.peakRssBytes ?? Number.NaN) / MIB;

type Runs = ReadonlyMap<string, readonly CycleFigures[]>;

/** One row a program: `pick` of each of its rounds. */
function perProgram(
  runs: Runs,
  label: string,
  digits: number,
  pick: (figures: CycleFigures) => number,
): RoundsRow[] {
  return [...runs].map(([name, programRuns]) => ({
    label: `${name} ${label}`,
    values: programRuns.map(pick),
    digits,
  }));
}

/** Ours over the peer's, round by round: each round's runs ran side by side. */
function perRound(
  ours: readonly CycleFigures[],
  peer: readonly CycleFigures[],
  pick: (figures: CycleFigures) => number,
): number[] {
  return ours.map((run, round) => {
    const theirs = peer[round];
    return theirs === undefined ? Number.NaN : pick(run) / pick(theirs);
  });
}

/** The cycle's figures, every round and the median, one program after the other per figure. */
export function cycleTable(runs: Runs, ours: string): string[] {
  const mine = runs.get(ours) ?? [];
  const peers = [...runs].filter(([name]) => name !== ours);
  const rows: RoundsRow[] = [
    ...perProgram(runs, 'CPU ms per order', 2, cpuPerOrder),
    ...perProgram(runs, 'CPU ms per order of the backlog', 2, backlogCpuPerOrder),
    ...perProgram(runs, 'orders/s', 0, (f) => f.ordersPerSecond),
    ...perProgram(runs, 'peak RSS MiB', 1, peakRss),
    ...perProgram(runs, 'start-up s', 2, (f) => f.startupMs / 1000),
    ...perProgram(runs, 'create → PATCHed p95 s', 2, (f) => percentile(f.toPatchedMs, 0.95) / 1000),
    ...peers.flatMap(([name, peerRuns]) => [
      {
        label: `${ours} CPU per order ÷ ${name}'s`,
        values: perRound(mine, peerRuns, cpuPerOrder),
        digits: 2,
      },
      {
        label: `${ours} orders/s ÷ ${name}'s`,
        values: perRound(mine, peerRuns, (f) => f.ordersPerSecond),
        digits: 2,
      },
    ]),
  ];
  return roundsTable(rows);
}

const fixed = (value: number, digits: number) =>
  Number.isNaN(value) ? 'n/a' : value.toFixed(digits);

/** Issue 42's targets the cycle judges: CPU per order and orders/s against Node-RED, peak RSS. */
export function cycleTargets(runs: Runs, ours: string, nodeRed: string): TargetFigure[] {
  const mine = runs.get(ours) ?? [];
  const peer = runs.get(nodeRed);
  const ourCpu = median(mine.map(cpuPerOrder));
  const ourRate = median(mine.map((f) => f.ordersPerSecond));
  const rss = median(mine.map(peakRss));
  const rssTarget: TargetFigure = {
    figure: `${ours} peak RSS of the cycle`,
    measured: `${fixed(rss, 1)} MiB`,
    target: `≤ ${PEAK_RSS_LIMIT_MIB} MiB`,
    met: rss <= PEAK_RSS_LIMIT_MIB,
  };
  if (peer === undefined) {
    const absent = 'not judged: Node-RED did not run (not installed, or not chosen)';
    return [
      {
        figure: `${ours} CPU ms per order`,
        measured: `${fixed(ourCpu, 2)} ms`,
        target: absent,
        met: undefined,
      },
      { figure: `${ours} orders/s`, measured: fixed(ourRate, 0), target: absent, met: undefined },
      rssTarget,
    ];
  }
  const cpuRatio = median(perRound(mine, peer, cpuPerOrder));
  const rateRatio = median(perRound(mine, peer, (f) => f.ordersPerSecond));
  const theirCpu = median(peer.map(cpuPerOrder));
  const theirRate = median(peer.map((f) => f.ordersPerSecond));
  return [
    {
      figure: `${ours} CPU ms per order against ${nodeRed}`,
      measured: `${fixed(ourCpu, 2)} against ${fixed(theirCpu, 2)} (${fixed(cpuRatio, 2)}×)`,
      target: `≤ ${nodeRed}'s ÷ ${AGAINST_NODE_RED} (${fixed(1 / AGAINST_NODE_RED, 2)}×)`,
      met: cpuRatio <= 1 / AGAINST_NODE_RED,
    },
    {
      figure: `${ours} orders/s against ${nodeRed}`,
      measured: `${fixed(ourRate, 0)} against ${fixed(theirRate, 0)} (${fixed(rateRatio, 2)}×)`,
      target: `≥ ${AGAINST_NODE_RED}× ${nodeRed}'s`,
      met: rateRatio >= AGAINST_NODE_RED,
    },
    rssTarget,
  ];
}
