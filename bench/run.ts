/**
 * `npm run bench [-- name...]`: runs the named benchmarks (all when none is named), one after
 * the other, printing their figures. Exits 1 when one failed, 2 when a name is unknown.
 */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { backlogBenchmark } from './backlog.js';
import { consoleBenchmark } from './console/index.js';
import { cycleBenchmark } from './cycle/index.js';
import { endpointBenchmark } from './endpoint/index.js';
import { idleBenchmark } from './idle.js';
import { inboxBenchmark } from './inbox.js';
import { pullBenchmark } from './pull/index.js';
import { pushBenchmark } from './push/index.js';
import { queueBenchmark } from './queue.js';
import { restartBenchmark } from './restart.js';
import { retentionBenchmark } from './retention.js';
import { simulatorBenchmark } from './simulator.js';
import type { Benchmark, TargetFigure } from './support/benchmark.js';
import { canCollect } from './support/memory.js';
import { seconds } from './support/format.js';

const BENCHMARKS: readonly Benchmark[] = [
  cycleBenchmark,
  pullBenchmark,
  pushBenchmark,
  idleBenchmark,
  simulatorBenchmark,
  queueBenchmark,
  restartBenchmark,
  endpointBenchmark,
  retentionBenchmark,
  inboxBenchmark,
  backlogBenchmark,
  consoleBenchmark,
];

function chosen(names: readonly string[]): Benchmark[] {
  if (names.length === 0) return [...BENCHMARKS];
  const unknown = names.filter((name) => !BENCHMARKS.some((b) => b.name === name));
  if (unknown.length > 0) {
    const known = BENCHMARKS.map((b) => `${b.name} (${b.description})`).join(', ');
    console.error(`unknown benchmark ${unknown.join(', ')}; there are: ${known}`);
    process.exit(2);
  }
  return BENCHMARKS.filter((b) => names.includes(b.name));
}

async function runOne(benchmark: Benchmark, targets: TargetFigure[]): Promise<boolean> {
  console.log(`== ${benchmark.name}: ${benchmark.description}`);
  const started = performance.now();
  try {
    const summary = await benchmark.run(
      (line) => console.log(`  ${line}`),
      (figure) => targets.push(figure),
    );
    console.log(`${benchmark.name}: ${summary} [${seconds(performance.now() - started)}]`);
    return true;
  } catch (error) {
    console.error(error);
    console.log(`${benchmark.name}: FAILED after ${seconds(performance.now() - started)}`);
    return false;
  }
}

/** The machine the figures come from: they mean little without it. */
function machine(): string {
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');
  const model = cpus()[0]?.model.trim() ?? 'unknown CPU';
  const memory = `${(totalmem() / 1024 ** 3).toFixed(0)} GiB`;
  return `node ${process.version}, ${availableParallelism()} CPUs (${model}), ${memory}, load average ${load}`;
}

const verdict = (met: boolean | undefined) =>
  met === undefined ? 'not judged' : met ? 'met' : 'NOT met';

/** The figures with a target, of every benchmark that ran, in one table at the end. */
function printTargets(targets: readonly TargetFigure[]): void {
  if (targets.length === 0) return;
  console.log('== targets: the figures measured side by side above (medians of their rounds)');
  const rows = targets.map((t) => [t.figure, t.measured, t.target, verdict(t.met)]);
  const header = ['figure', 'measured', 'target', ''];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  rows.forEach((row) => console.log(line(row)));
}

async function main(): Promise<void> {
  console.log(machine());
  if (!canCollect()) {
    console.log(
      'note: started without --expose-gc, so no live-heap figures (npm run bench adds it)',
    );
  }
  let failed = 0;
  const targets: TargetFigure[] = [];
  for (const benchmark of chosen(process.argv.slice(2))) {
    if (!(await runOne(benchmark, targets))) failed += 1;
  }
  printTargets(targets);
  console.log(`at the end: ${machine()}`);
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
