/**
 * A catalogue's first pull beside new orders (issue 37): the daemon, as in its container, starts
 * on a platform whose article list holds 300,000 articles (`BENCH_BACKLOG_ARTICLES`), pulls it
 * once and hands each article to the ERP (file adapter, a JSON file each), while two new single
 * orders a second are created: from its start until TAIL_MS after the catalogue's pull ended,
 * while its hand-overs are the queue's backlog. Printed: the catalogue's pull, the hand-overs
 * still waiting when the last order reached the outbox, and from each order's `createdAt` to its
 * file in the outbox p50, p95 and the slowest, against the limit of 2 s: a backlog of one
 * resource must never hold an order for more than seconds.
 */
import { spawn } from 'node:child_process';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { writeFileSync } from 'node:fs';
import type { Benchmark } from './support/benchmark.js';
import { asInContainer, ensureBuilt } from './support/daemonCommand.js';
import { count, percentile, rate, seconds } from './support/format.js';
import { startSimulatorProcess } from './support/simulatorProcess.js';
import { stopChild } from './support/stopChild.js';
import { withTempFolder } from './support/tempFolder.js';
import { orderTemplate } from './support/orderTemplate.js';

const ARTICLES = Number(process.env['BENCH_BACKLOG_ARTICLES'] ?? 300_000);
/** The daemon's `sync.batchSize` when given (its default otherwise): how long a stored batch holds the loop. */
const BATCH_SIZE = process.env['BENCH_BACKLOG_BATCH'];
const ORDERS_PER_SECOND = 2;
const LIMIT_MS = 2_000;
/** Orders are created this long after the catalogue's pull ended, beside its hand-overs. */
const TAIL_MS = 30_000;
/** The timeline's step: each window's slowest order is printed. */
const WINDOW_MS = 10_000;
/** No phase may take longer than this: the benchmark fails instead of hanging. */
const PHASE_LIMIT_MS = 20 * 60_000;

/** The daemon's config: orders every second, the rest as a daemon has it, a JSON file each. */
function writeConfig(folder: string, url: string): string {
  const path = join(folder, 'homecare-sync.yaml');
  const config = {
    platform: { baseUrl: url, apiKey: 'demo-key', variant: 'B' },
    storage: { path: join(folder, 'sync.db') },
    erp: {
      adapter: 'file',
      file: { outbox: join(folder, 'outbox'), inbox: join(folder, 'inbox'), format: 'json' },
    },
    sync: {
      jitterSeconds: 0,
      ...(BATCH_SIZE === undefined ? {} : { batchSize: Number(BATCH_SIZE) }),
      resources: { singleOrder: { schedule: '* * * * * *', statuses: ['created'] } },
    },
    http: { enabled: false },
    log: { level: process.env['BENCH_BACKLOG_LOG'] === undefined ? 'info' : 'debug' },
  };
  writeFileSync(path, stringify(config), { mode: 0o600 });
  return path;
}

async function filesIn(folder: string): Promise<string[]> {
  try {
    return (await readdir(folder)).filter((name) => !name.startsWith('.'));
  } catch {
    return [];
  }
}

/** When each order's file (named after its id) came into the outbox, epoch ms. */
async function orderFiles(outbox: string): Promise<Map<string, number>> {
  const folder = join(outbox, 'singleOrder');
  const times = new Map<string, number>();
  for (const name of await filesIn(folder)) {
    times.set(name.replace(/_.*$/, ''), (await stat(join(folder, name))).mtimeMs);
  }
  return times;
}

interface PullLine {
  fetched?: number;
  durationMs?: number;
  msg?: string;
  resource?: string;
  filter?: string;
}

/** The article catalogue's first pull as the daemon logged it: records, and its longest list. */
function cataloguePull(output: string): { fetched: number; durationMs: number } {
  const lists = output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as PullLine)
    .filter((line) => line.resource === 'article' && line.msg === 'pull finished');
  return {
    fetched: lists.reduce((sum, line) => sum + (line.fetched ?? 0), 0),
    durationMs: Math.max(0, ...lists.map((line) => line.durationMs ?? 0)),
  };
}

/** Each window's slowest order (create → file), so that a phase where orders wait shows. */
function byWindow(
  created: ReadonlyMap<string, number>,
  files: ReadonlyMap<string, number>,
): string {
  const first = Math.min(...created.values());
  const windows = new Map<number, number>();
  for (const [id, at] of created) {
    const window = Math.floor((at - first) / WINDOW_MS);
    windows.set(window, Math.max(windows.get(window) ?? 0, (files.get(id) ?? Number.NaN) - at));
  }
  return [...windows.values()].map((ms) => (ms / 1000).toFixed(1)).join(' ');
}

async function waitUntil(what: string, check: () => Promise<boolean>): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > PHASE_LIMIT_MS)
      throw new Error(`${what}: not within ${PHASE_LIMIT_MS} ms`);
    await sleep(200);
  }
}

async function runBacklog(print: (line: string) => void): Promise<string> {
  ensureBuilt(print);
  print(`seeding a simulator with ${count(ARTICLES)} articles`);
  const sim = await startSimulatorProcess({ articles: ARTICLES });
  try {
    return await withTempFolder(async (folder) => {
      const outbox = join(folder, 'outbox');
      await mkdir(outbox, { recursive: true });
      const template = await orderTemplate(sim);
      const configPath = writeConfig(folder, sim.url);
      const child = spawn(process.execPath, asInContainer(['run', '-c', configPath]), {
        cwd: folder,
        env: { PATH: process.env['PATH'] ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
      const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
      const created = new Map<string, number>();
      let stopAt = Number.POSITIVE_INFINITY;
      const articles = join(outbox, 'article');
      try {
        // Orders made before the daemon runs would measure its start, not the backlog.
        await waitUntil('the daemon started', () =>
          Promise.resolve(output.includes('"msg":"homecare-sync started"')),
        );
        // Orders two a second from the start, until TAIL_MS after the catalogue's pull ended.
        const creating = (async () => {
          while (Date.now() < stopAt) {
            const record = await sim.control('POST', '/records/singleOrder', { record: template });
            created.set(String(record['_id']), Date.parse(String(record['createdAt'])));
            await sleep(1000 / ORDERS_PER_SECOND);
          }
        })();
        await waitUntil('the catalogue pulled', () =>
          Promise.resolve(cataloguePull(output).fetched >= ARTICLES),
        );
        stopAt = Date.now() + TAIL_MS;
        await creating;
        const ids = new Set(created.keys());
        let files = await orderFiles(outbox);
        await waitUntil('every order in the outbox', async () => {
          files = await orderFiles(outbox);
          return [...ids].every((id) => files.has(id));
        });
        const waiting = ARTICLES - (await filesIn(articles)).length;
        if (process.env['BENCH_BACKLOG_LOG'] !== undefined)
          writeFileSync(process.env['BENCH_BACKLOG_LOG'], output);
        const pull = cataloguePull(output);
        const latencies = [...created].map(([id, at]) => (files.get(id) ?? Number.NaN) - at);
        print(
          `create → file by ${seconds(WINDOW_MS)} window of creation: ${byWindow(created, files)}`,
        );
        const p95 = percentile(latencies, 0.95);
        print(
          `catalogue: ${count(pull.fetched)} articles pulled in ${seconds(pull.durationMs)} (${rate(pull.fetched, pull.durationMs)} on its longest list); ${count(waiting)} of their hand-overs still waiting when the last order was in the outbox`,
        );
        print(
          `orders: ${count(latencies.length)} created ${ORDERS_PER_SECOND} a second from the start to ${seconds(TAIL_MS)} after the pull; create → file p50 ${seconds(percentile(latencies, 0.5))}, p95 ${seconds(p95)}, slowest ${seconds(Math.max(...latencies))} (limit ${seconds(LIMIT_MS)} at p95: ${p95 <= LIMIT_MS ? 'met' : 'MISSED'})`,
        );
        return `order create → file p95 ${seconds(p95)} beside a ${count(ARTICLES)}-article first pull of ${seconds(pull.durationMs)}`;
      } catch (error) {
        throw new Error(`${String(error)}\nthe daemon's last output:\n${output.slice(-4000)}`);
      } finally {
        await stopChild(child, exited, 30_000);
      }
    });
  } finally {
    await sim.stop();
  }
}

export const backlogBenchmark: Benchmark = {
  name: 'backlog',
  description: `a ${count(ARTICLES)}-article first pull beside ${ORDERS_PER_SECOND} new orders a second: order create → file p95 (limit ${seconds(LIMIT_MS)})`,
  run: runBacklog,
};
