/**
 * Restart after `kill -9`: how long from starting `homecare-sync run` again until it logs
 * `homecare-sync started`, right after the last one was killed in the middle of its work. With
 * the writer lock the OS frees on death there is nothing to wait out; the figure is the start-up
 * itself (node, the tsx loader, opening and checking the database), next to a first start.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { startSimulator } from '../src/simulator/index.js';
import type { Benchmark } from './support/benchmark.js';
import { millis, percentile } from './support/format.js';
import { withTempFolder } from './support/tempFolder.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const MAIN = join(ROOT, 'src/cli/main.ts');
const LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const RESTARTS = 5;
const WORK_MS = 1500;

interface Daemon {
  /** Milliseconds from the spawn until `homecare-sync started`. */
  started: Promise<number>;
  kill(): Promise<void>;
}

function startDaemon(config: string, cwd: string): Daemon {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['--import', LOADER, MAIN, 'run', '-c', config], {
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

/** What a start costs before homecare-sync runs a line: node and the tsx loader, to exit. */
async function nodeAlone(): Promise<number> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, ['--import', LOADER, '-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.on('close', resolve));
  return performance.now() - spawnedAt;
}

export const restartBenchmark: Benchmark = {
  name: 'restart',
  description: `start after kill -9 until "homecare-sync started", ${RESTARTS} times`,
  run: (print) =>
    withTempFolder(async (folder) => {
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
        print(`node with the tsx loader alone: ${millis(await nodeAlone())}`);
        let daemon = startDaemon(config, folder);
        print(`first start: ${millis(await daemon.started)}`);
        const restarts: number[] = [];
        for (let i = 0; i < RESTARTS; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, WORK_MS));
          await daemon.kill();
          daemon = startDaemon(config, folder);
          restarts.push(await daemon.started);
          print(`after kill -9 #${i + 1}: ${millis(restarts.at(-1) ?? 0)}`);
        }
        await daemon.kill();
        return `restart after kill -9: median ${millis(percentile(restarts, 0.5))}, worst ${millis(Math.max(...restarts))}`;
      } finally {
        await simulator.close();
      }
    }),
};
