/**
 * The real daemon (`homecare-sync run`) in a child process of its own, from the sources through
 * the tsx loader: the load generator's CPU is then not the daemon's event loop, and the figures
 * are those of the endpoint as it is in src/ now, without a build of dist/ in between.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { freePort } from '../support/freePort.js';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { processStats } from '../cycle/processStats.js';
import { stopChild } from '../support/stopChild.js';
import { answered, send } from './client.js';

/**
 * The checkout whose src/ runs as the daemon: this one, unless BENCH_ENDPOINT_ROOT names another
 * (an export of an older commit, say), so that before and after run under the same benchmark.
 */
export const DAEMON_ROOT =
  process.env['BENCH_ENDPOINT_ROOT'] ?? fileURLToPath(new URL('../../', import.meta.url));
export const SOURCE_MAIN = join(DAEMON_ROOT, 'src/cli/main.ts');
const LOADER = pathToFileURL(join(DAEMON_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
/** Start-up through tsx takes a few seconds; only a daemon that will never answer waits this. */
const START_BOUND_MS = 45_000;
/** A daemon that has not stopped by then is killed: a busy event loop may never see SIGTERM. */
const STOP_BOUND_MS = 3_000;
/** The daemon counts as settled when it spends less CPU than this in a SETTLE_STEP_MS. */
const SETTLED_CPU_SECONDS = 0.05;
const SETTLE_STEP_MS = 500;
const SETTLE_BOUND_MS = 15_000;
/** What is kept of the daemon's output, for the report when it fails or dies. */
const KEPT_CHARS = 4_000;

export interface DaemonOptions {
  folder: string;
  platformUrl: string;
  token: string;
}

export interface Daemon {
  port: number;
  pid: number;
  /** The exit code or signal when the process has ended, else undefined. */
  ended(): string | undefined;
  /** The end of what it printed (stdout and stderr): its warnings and errors. */
  output(): string;
  /** What it printed (log level warn): lines by level, and the first that was not a warning. */
  printed(): string;
  /** SIGTERM, then SIGKILL when it has not ended within STOP_BOUND_MS; says how it ended. */
  stop(): Promise<string>;
}

/** The config: the file adapter in the temp folder, the endpoint with its default limits. */
function writeConfig(options: DaemonOptions, port: number): string {
  const { folder } = options;
  const settings = {
    platform: { baseUrl: options.platformUrl, apiKey: 'demo-key', variant: 'B' },
    storage: { path: join(folder, 'sync.db') },
    erp: { file: { outbox: join(folder, 'outbox'), inbox: join(folder, 'inbox') } },
    http: { enabled: true, host: '127.0.0.1', port, token: options.token },
    log: { level: 'warn' },
  };
  const path = join(folder, 'homecare-sync.yaml');
  writeFileSync(path, stringify(settings), { mode: 0o600 });
  return path;
}

/** Polls /healthz until it answers 200; fails when the daemon exits or the bound passes. */
async function untilHealthy(daemon: Daemon): Promise<void> {
  const deadline = performance.now() + START_BOUND_MS;
  while (performance.now() < deadline) {
    const ended = daemon.ended();
    if (ended !== undefined) {
      throw new Error(`the daemon exited (${ended}) before /healthz answered:\n${daemon.output()}`);
    }
    const outcome = await send({
      port: daemon.port,
      method: 'GET',
      path: '/healthz',
      timeoutMs: 1_000,
    });
    if (answered(outcome) && outcome.status === 200) return;
    await sleep(100);
  }
  throw new Error(`/healthz did not answer 200 within ${START_BOUND_MS} ms:\n${daemon.output()}`);
}

const LEVELS: Record<number, string> = { 40: 'warn', 50: 'error', 60: 'fatal' };
/** How much of the first error is shown: its message names what went wrong. */
const SHOWN_CHARS = 160;

interface Printed {
  /** Lines by level ("warn", "error", ...; "other" for a line that is not a log line). */
  levels: Map<string, number>;
  firstError: string | undefined;
}

/** Counts one line the daemon printed; the messages vary (ids, times), so only levels are counted. */
function note(printed: Printed, line: string): void {
  let level = 'other';
  let msg = line;
  try {
    const parsed = JSON.parse(line) as { level?: unknown; msg?: unknown } | null;
    // The daemon logs the level's label ("warn"); plain pino would log its number (40).
    if (typeof parsed?.level === 'string') level = parsed.level;
    if (typeof parsed?.level === 'number') level = LEVELS[parsed.level] ?? String(parsed.level);
    if (typeof parsed?.msg === 'string') msg = parsed.msg;
  } catch {
    // Not a log line: a stack trace, say; counted as "other".
  }
  printed.levels.set(level, (printed.levels.get(level) ?? 0) + 1);
  if (level !== 'warn' && printed.firstError === undefined) {
    printed.firstError = msg.slice(0, SHOWN_CHARS);
  }
}

function described(printed: Printed): string {
  if (printed.levels.size === 0) return 'nothing';
  const levels = [...printed.levels].map(([level, n]) => `${level} ×${n}`).join(', ');
  return printed.firstError === undefined ? levels : `${levels}; first: ${printed.firstError}`;
}

function spawnDaemon(config: string, folder: string, port: number): Daemon {
  const child = spawn(process.execPath, ['--import', LOADER, SOURCE_MAIN, 'run', '-c', config], {
    cwd: folder,
    env: { PATH: process.env['PATH'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('the daemon process did not start');
  let output = '';
  let partial = '';
  const printed: Printed = { levels: new Map(), firstError: undefined };
  const keep = (chunk: string): void => {
    output = (output + chunk).slice(-KEPT_CHARS);
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) note(printed, line);
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  let ended: string | undefined;
  const exited = new Promise<void>((resolve) =>
    child.on('close', (code, signal) => {
      ended = String(code ?? signal ?? 'unknown');
      resolve();
    }),
  );
  return {
    port,
    pid,
    ended: () => ended,
    output: () => output,
    printed: () => described(printed),
    async stop() {
      if (ended !== undefined) return `had exited (${ended})`;
      const started = performance.now();
      const { killed } = await stopChild(child, exited, STOP_BOUND_MS);
      const after = `${(performance.now() - started).toFixed(0)} ms`;
      return killed
        ? `SIGKILL after SIGTERM went unheeded ${after}`
        : `exited ${ended} ${after} after SIGTERM`;
    },
  };
}

/** Starts the daemon and resolves once /healthz answers; stops it again when that fails. */
export async function startDaemon(options: DaemonOptions): Promise<Daemon> {
  const port = await freePort();
  const daemon = spawnDaemon(writeConfig(options, port), options.folder, port);
  try {
    await untilHealthy(daemon);
    return daemon;
  } catch (error) {
    await daemon.stop();
    throw error;
  }
}

/**
 * Waits until the daemon is idle (its first pull against the simulator done, its code warm), so
 * the baseline is not its start-up; resolves with how long that took, bounded by SETTLE_BOUND_MS.
 */
export async function settle(daemon: Daemon): Promise<number> {
  const started = performance.now();
  let last = (await processStats(daemon.pid))?.cpuSeconds;
  while (last !== undefined && performance.now() - started < SETTLE_BOUND_MS) {
    await sleep(SETTLE_STEP_MS);
    const now = (await processStats(daemon.pid))?.cpuSeconds;
    if (now === undefined || now - last < SETTLED_CPU_SECONDS) break;
    last = now;
  }
  return performance.now() - started;
}
