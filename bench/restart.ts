/**
 * Restart after `kill -9`: how long from starting `homecare-sync run` again until it logs
 * `homecare-sync started`, right after the last one was killed in the middle of its work. With
 * the writer lock the OS frees on death there is nothing to wait out; the figure is the start-up
 * itself (node, loading the code, opening and checking the database), next to a first start.
 * Measured as the container starts it (built dist/, the Dockerfile's node flags), then as a
 * developer does (`npm run dev`: the sources through the tsx loader), each beside node alone.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { startSimulator } from '../src/simulator/index.js';
import type { Benchmark } from './support/benchmark.js';
import { asInContainer, containerNodeFlags, ensureBuilt } from './support/daemonCommand.js';
import { millis, percentile } from './support/format.js';
import { withTempFolder } from './support/tempFolder.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const SOURCE_MAIN = join(ROOT, 'src/cli/main.ts');
const LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const RESTARTS = 5;
const WORK_MS = 1500;

/** One way to start node: its arguments before the script, and the daemon's `run` command. */
interface Way {
  name: string;
  nodeFlags: string[];
  run(config: string): string[];
}

const WAYS: readonly Way[] = [
  {
    name: 'as in the container (node dist/cli/main.js)',
    nodeFlags: containerNodeFlags(),
    run: (config) => asInContainer(['run', '-c', config]),
  },
  {
    name: 'from the sources (tsx loader)',
    nodeFlags: ['--import', LOADER],
    run: (config) => ['--import', LOADER, SOURCE_MAIN, 'run', '-c', config],
  },
];

interface Daemon {
  /** Milliseconds from the spawn until `homecare-sync started`. */
  started: Promise<number>;
  kill(): Promise<void>;
}

function startDaemon(args: readonly string[], cwd: string): Daemon {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env['PATH'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  let err = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const started = new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes('"msg":"homecare-sync started"')) resolve(performance.now() - spawnedAt);
    });
    void exited.then(() => reject(new Error(`the daemon exited before it started: ${err}`)));
  });
  return {
    started,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** What a start costs before homecare-sync runs a line: node with these flags, to exit. */
async function nodeAlone(flags: readonly string[]): Promise<number> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...flags, '-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return performance.now() - spawnedAt;
}

/** A first start, then RESTARTS starts each right after a kill -9 of the last one at work. */
async function restarts(way: Way, config: string, folder: string, print: (line: string) => void) {
  print(`${way.name}: node alone ${millis(await nodeAlone(way.nodeFlags))}`);
  let daemon = startDaemon(way.run(config), folder);
  print(`${way.name}: first start ${millis(await daemon.started)}`);
  const times: number[] = [];
  for (let i = 0; i < RESTARTS; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, WORK_MS));
    await daemon.kill();
    daemon = startDaemon(way.run(config), folder);
    times.push(await daemon.started);
  }
  await daemon.kill();
  print(`${way.name}: after kill -9 ${times.map((ms) => millis(ms)).join(', ')}`);
  return `${way.name}: median ${millis(percentile(times, 0.5))}, worst ${millis(Math.max(...times))}`;
}

export const restartBenchmark: Benchmark = {
  name: 'restart',
  description: `start after kill -9 until "homecare-sync started", ${RESTARTS} times, as in the container and from the sources`,
  run: (print) =>
    withTempFolder(async (folder) => {
      ensureBuilt(print);
      const simulator = await startSimulator({ variant: 'B', port: 0, host: '127.0.0.1' });
      try {
        const config = join(folder, 'homecare-sync.yaml');
        const settings = {
          platform: { baseUrl: simulator.url, apiKey: 'demo-key', variant: 'B' },
          storage: { path: join(folder, 'sync.db') },
          erp: { file: { outbox: join(folder, 'outbox'), inbox: join(folder, 'inbox') } },
          http: { enabled: false },
          log: { level: 'info' },
        };
        writeFileSync(config, stringify(settings), { mode: 0o600 });
        const medians: string[] = [];
        for (const way of WAYS) medians.push(await restarts(way, config, folder, print));
        return `restart after kill -9: ${medians.join('; ')}`;
      } finally {
        await simulator.close();
      }
    }),
};
