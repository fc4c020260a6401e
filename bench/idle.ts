/**
 * An idle daemon: `homecare-sync run` as in its container, with the order cycle's configuration
 * (the created single orders and what their enrichment reads, every second), against the
 * simulator once nothing changes on it any more. What it writes to disk for each list request
 * that brings nothing, and the CPU it spends meanwhile: the cost of every hour of a container
 * with nothing to do.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestLogEntry } from '../src/simulator/requestLog.js';
import { processStats } from './cycle/processStats.js';
import { homecareSync } from './cycle/programs.js';
import type { Benchmark } from './support/benchmark.js';
import { sizeOnDisk } from './support/databaseSize.js';
import { ensureBuilt } from './support/daemonCommand.js';
import { median, mib } from './support/format.js';
import { roundsTable } from './support/rounds.js';
import { startSimulatorProcess, type SimulatorProcess } from './support/simulatorProcess.js';
import { withTempFolder } from './support/tempFolder.js';

/**
 * The pull's overlap window in this benchmark: a list brings the records changed in the last
 * overlap again (the ledger drops them), so it is empty only that long after the last change.
 * 10 s instead of the default 120 s, so that the daemon settles in seconds; an empty poll is
 * the same either way.
 */
const OVERLAP_SECONDS = 10;
/** Nothing written to the platform for this long, and the daemon's lists are empty. */
const SETTLE_MS = (OVERLAP_SECONDS + 5) * 1000;
const SETTLE_LIMIT_MS = 180_000;
const WINDOWS = 3;
const WINDOW_MS = 20_000;
/** Issue 42's target: at most one database page (4 KiB) written per empty list request. */
const BYTES_PER_EMPTY_LIST_LIMIT = 4096;
const LISTED = /^\/(singleOrder|patient|integratedCare|article)$/;

interface WindowFigures {
  lists: number;
  writeBytes: number;
  cpuMs: number;
  ms: number;
}

/** Bytes the process caused to be written to storage (/proc/<pid>/io: write_bytes), all threads. */
async function writeBytes(pid: number): Promise<number> {
  const io = await readFile(`/proc/${pid}/io`, 'utf8');
  const bytes = /^write_bytes:\s+(\d+)/m.exec(io)?.[1];
  if (bytes === undefined) throw new Error(`/proc/${pid}/io has no write_bytes`);
  return Number(bytes);
}

async function cpuMs(pid: number): Promise<number> {
  const stats = await processStats(pid);
  if (stats === undefined) throw new Error(`no /proc/${pid}: the daemon exited`);
  return stats.cpuSeconds * 1000;
}

async function requests(sim: SimulatorProcess): Promise<RequestLogEntry[]> {
  // The control API answers the request log as a JSON array.
  return (await sim.control('GET', '/requests')) as unknown as RequestLogEntry[];
}

/** Waits until the daemon has written nothing to the platform for SETTLE_MS, and lists. */
async function settle(sim: SimulatorProcess, startedAt: number): Promise<void> {
  let lastWriteAt = startedAt;
  for (;;) {
    await sleep(1000);
    const log = await requests(sim);
    for (const entry of log) {
      if (entry.method !== 'GET') lastWriteAt = Math.max(lastWriteAt, Date.parse(entry.time));
    }
    const listing = log.some((entry) => entry.method === 'GET' && LISTED.test(entry.path));
    if (listing && Date.now() - lastWriteAt > SETTLE_MS) return;
    if (Date.now() - startedAt > SETTLE_LIMIT_MS) {
      throw new Error(`the daemon did not settle within ${SETTLE_LIMIT_MS} ms`);
    }
  }
}

/** One window of WINDOW_MS: the list requests answered and what the daemon wrote meanwhile. */
async function measureWindow(sim: SimulatorProcess, pid: number): Promise<WindowFigures> {
  await sim.control('DELETE', '/requests');
  const [bytesBefore, cpuBefore, started] = [await writeBytes(pid), await cpuMs(pid), Date.now()];
  await sleep(WINDOW_MS);
  const [bytesAfter, cpuAfter, ms] = [
    await writeBytes(pid),
    await cpuMs(pid),
    Date.now() - started,
  ];
  const log = await requests(sim);
  const writes = log.filter((entry) => entry.method !== 'GET');
  if (writes.length > 0) {
    throw new Error(
      `not idle: the daemon sent ${writes.length} write(s) in the window, e.g. ${writes[0]?.method} ${writes[0]?.path}`,
    );
  }
  const lists = log.filter((entry) => LISTED.test(entry.path)).length;
  return { lists, writeBytes: bytesAfter - bytesBefore, cpuMs: cpuAfter - cpuBefore, ms };
}

export const idleBenchmark: Benchmark = {
  name: 'idle',
  description: `an idle daemon (1 s schedules, nothing changing on the simulator): bytes written per empty list request and CPU, ${WINDOWS} windows of ${WINDOW_MS / 1000} s`,
  async run(print, note) {
    ensureBuilt(print);
    const sim = await startSimulatorProcess();
    try {
      return await withTempFolder(async (folder) => {
        const outbox = join(folder, 'outbox');
        await mkdir(outbox, { recursive: true });
        const daemon = homecareSync.start({
          simulatorUrl: sim.url,
          apiKey: 'demo-key',
          folder,
          outbox,
          scheduleSeconds: 1,
          overlapSeconds: OVERLAP_SECONDS,
        });
        try {
          await settle(sim, daemon.spawnedAt);
          const windows: WindowFigures[] = [];
          for (let n = 0; n < WINDOWS; n++) windows.push(await measureWindow(sim, daemon.pid));
          const perList = windows.map((w) => w.writeBytes / Math.max(1, w.lists));
          roundsTable(
            [
              { label: 'empty list requests', values: windows.map((w) => w.lists), digits: 0 },
              { label: 'bytes written', values: windows.map((w) => w.writeBytes), digits: 0 },
              { label: 'bytes written per empty list request', values: perList, digits: 0 },
              {
                label: 'CPU ms per second',
                values: windows.map((w) => (w.cpuMs * 1000) / w.ms),
                digits: 1,
              },
            ],
            'window',
          ).forEach((line) => print(line));
          const storage = join(folder, 'homecare-sync.db');
          print(`database and WAL afterwards: ${mib(await sizeOnDisk(storage))}`);
          const bytes = median(perList);
          note({
            figure: 'bytes written per empty list request (idle daemon)',
            measured: `${bytes.toFixed(0)} B (${(bytes / 1024).toFixed(1)} KiB)`,
            target: `≤ ${BYTES_PER_EMPTY_LIST_LIMIT / 1024} KiB (one database page)`,
            met: bytes <= BYTES_PER_EMPTY_LIST_LIMIT,
          });
          const cpu = median(windows.map((w) => (w.cpuMs * 1000) / w.ms));
          return `${bytes.toFixed(0)} bytes written per empty list request, ${cpu.toFixed(1)} ms CPU a second (medians of ${WINDOWS} windows)`;
        } catch (error) {
          throw new Error(`${String(error)}\nthe daemon's last output:\n${daemon.output()}`);
        } finally {
          await daemon.stop();
        }
      });
    } finally {
      await sim.stop();
    }
  },
};
