import { mkdir, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningSimulator } from '../../src/simulator/index.js';
import { withTempFolder } from '../support/tempFolder.js';
import { processStats, type ProcessStats } from './processStats.js';
import type { JobSetup, Program } from './programs.js';
import { orderTemplate } from '../support/orderTemplate.js';

export const BACKLOG = 2_000;
/** Orders created one by one while the program runs, for the create → file/PATCH latencies. */
export const TRICKLE = 200;
const TRICKLE_PER_SECOND = 20;
const SCHEDULE_SECONDS = 1;
const API_KEY = 'demo-key';
/** No program may take longer than this for a phase: the benchmark fails instead of hanging. */
const PHASE_LIMIT_MS = 180_000;

export interface CycleFigures {
  program: string;
  /** Spawn → first request the program sent the platform. */
  startupMs: number;
  /** The backlog over the time from its first list request to its last acknowledgement. */
  ordersPerSecond: number;
  backlogMs: number;
  /** When the backlog's files were written and its PATCHes answered, from the first request. */
  timeline: BacklogTimeline;
  toFileMs: number[];
  toPatchedMs: number[];
  /** The process's CPU and peak rss once the backlog was acknowledged (start-up included). */
  backlogStats: ProcessStats | undefined;
  /** The same at the end of the job: the backlog and the trickle. */
  stats: ProcessStats | undefined;
}

/** Milliseconds from the program's first request: the first and last of each backlog step. */
export interface BacklogTimeline {
  files: [number, number];
  patches: [number, number];
}

function span(times: Iterable<number>, from: number): [number, number] {
  const values = [...times];
  return [Math.min(...values) - from, Math.max(...values) - from];
}

type Simulator = Pick<RunningSimulator, 'url' | 'controlToken' | 'state'>;

async function control(sim: Simulator, method: string, path: string, body?: unknown) {
  const response = await fetch(`${sim.url}/__sim${path}`, {
    method,
    headers: {
      'sim-control-token': sim.controlToken,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok)
    throw new Error(`simulator control ${method} ${path}: ${response.status} ${text}`);
  return text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
}

/** Creates one order through the control API; its id and createdAt (epoch ms). */
async function createOrder(sim: Simulator, template: Record<string, unknown>) {
  const record = await control(sim, 'POST', '/records/singleOrder', { record: template });
  return { id: String(record['_id']), createdAt: Date.parse(String(record['createdAt'])) };
}

/** When each of `ids` was acknowledged (the arrival of its answered PATCH), epoch ms. */
function patchTimes(sim: Simulator, ids: ReadonlySet<string>): Map<string, number> {
  const times = new Map<string, number>();
  for (const entry of sim.state.requests.list()) {
    if (entry.method !== 'PATCH' || entry.status !== 200) continue;
    const id = entry.path.slice(entry.path.lastIndexOf('/') + 1);
    if (ids.has(id) && !times.has(id)) times.set(id, Date.parse(entry.time));
  }
  return times;
}

async function waitForPatches(sim: Simulator, ids: ReadonlySet<string>, what: string) {
  const started = Date.now();
  for (;;) {
    const times = patchTimes(sim, ids);
    if (times.size === ids.size) return times;
    if (Date.now() - started > PHASE_LIMIT_MS) {
      throw new Error(
        `${what}: ${times.size} of ${ids.size} orders acknowledged after ${PHASE_LIMIT_MS} ms`,
      );
    }
    await sleep(100);
  }
}

/** The mtime of each order's file (named after its id) in the outbox, epoch ms. */
async function fileTimes(outbox: string): Promise<Map<string, number>> {
  const times = new Map<string, number>();
  for (const entry of await readdir(outbox, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    const path = join(entry.parentPath, entry.name);
    const id = entry.name.replace(/[._].*$/, '');
    times.set(id, (await stat(path)).mtimeMs);
  }
  return times;
}

async function firstRequestAt(sim: Simulator, spawnedAt: number): Promise<number> {
  for (let waited = 0; waited < PHASE_LIMIT_MS; waited += 20) {
    const first = sim.state.requests.list().find((entry) => !entry.path.startsWith('/__sim'));
    if (first !== undefined) return Date.parse(first.time);
    await sleep(20);
  }
  throw new Error(`no request ${PHASE_LIMIT_MS} ms after the start (spawned at ${spawnedAt})`);
}

/**
 * The order-cycle job for one program: `BACKLOG` created single orders wait on a freshly reset
 * simulator; the program starts and must write each to a file and PATCH it to status 1. Then
 * `TRICKLE` more are created one by one while it runs, for the latencies.
 */
export function runJob(sim: Simulator, program: Program): Promise<CycleFigures> {
  return withTempFolder(async (folder) => {
    await control(sim, 'POST', '/reset');
    const template = await orderTemplate(sim);
    const backlog = new Set<string>();
    for (let n = 0; n < BACKLOG; n++) backlog.add((await createOrder(sim, template)).id);
    await control(sim, 'DELETE', '/requests');
    const outbox = join(folder, 'outbox');
    await mkdir(outbox, { recursive: true });
    const setup: JobSetup = {
      simulatorUrl: sim.url,
      apiKey: API_KEY,
      folder,
      outbox,
      scheduleSeconds: SCHEDULE_SECONDS,
    };
    const running = program.start(setup);
    try {
      const firstAt = await firstRequestAt(sim, running.spawnedAt);
      const backlogTimes = await waitForPatches(sim, backlog, `${program.name}, backlog`);
      const backlogMs = Math.max(...backlogTimes.values()) - firstAt;
      const backlogStats = await processStats(running.pid);
      const created = new Map<string, number>();
      for (let n = 0; n < TRICKLE; n++) {
        const order = await createOrder(sim, template);
        created.set(order.id, order.createdAt);
        await sleep(1000 / TRICKLE_PER_SECOND);
      }
      const patched = await waitForPatches(
        sim,
        new Set(created.keys()),
        `${program.name}, trickle`,
      );
      const stats = await processStats(running.pid);
      const files = await fileTimes(outbox);
      const toFileMs: number[] = [];
      const toPatchedMs: number[] = [];
      for (const [id, createdAt] of created) {
        const fileAt = files.get(id);
        if (fileAt === undefined) throw new Error(`${program.name} wrote no file for order ${id}`);
        toFileMs.push(fileAt - createdAt);
        toPatchedMs.push((patched.get(id) ?? Number.NaN) - createdAt);
      }
      const missing = [...backlog].filter((id) => !files.has(id));
      if (missing.length > 0)
        throw new Error(`${program.name} wrote no file for ${missing.length} backlog orders`);
      const backlogFiles = [...backlog].map((id) => files.get(id) ?? Number.NaN);
      return {
        program: program.name,
        startupMs: firstAt - running.spawnedAt,
        ordersPerSecond: (BACKLOG * 1000) / backlogMs,
        backlogMs,
        timeline: {
          files: span(backlogFiles, firstAt),
          patches: span(backlogTimes.values(), firstAt),
        },
        toFileMs,
        toPatchedMs,
        backlogStats,
        stats,
      };
    } catch (error) {
      throw new Error(
        `${program.name} failed: ${String(error)}\nits last output:\n${running.output()}`,
      );
    } finally {
      await running.stop();
    }
  });
}
