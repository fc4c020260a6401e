import { spawn } from 'node:child_process';
import type { ClockAnswer, ClockMessage } from '../../../src/cli/testClock.js';
import { TEST_CLOCK_ENV } from '../../../src/cli/testClock.js';
import { builtCli } from '../cli.js';
import { WAIT_MS } from '../eventually.js';

// The daemon's tests wait with the shared helpers; imported from here beside the daemon.
export { eventually, withinBound } from '../eventually.js';

/** One JSON log line the daemon printed, as parsed. */
export type LogLine = Record<string, unknown> & { msg?: string; level?: number | string };

export interface DaemonProcess {
  /** Everything printed on stdout so far (the JSON log lines). */
  stdout(): string;
  /** The JSON log lines printed so far, parsed. */
  lines(): LogLine[];
  stderr(): string;
  /** Resolves with the first log line with this `msg` (and the fields of `match`). */
  waitForLog(msg: string, match?: Record<string, unknown>): Promise<LogLine>;
  /** Resolves with the exit code (or the signal's name) once the process ended. */
  exited: Promise<number | string>;
  signal(name: NodeJS.Signals): void;
  pid: number;
  /**
   * Moves the daemon's clock on by `ms` (started with `clock: true`); resolves with its time
   * once it moved.
   */
  advanceClock(ms: number): Promise<string>;
}

export interface DaemonProcessOptions {
  nodeArgs?: readonly string[];
  env?: Record<string, string>;
  /** The daemon's clock is one the test moves (advanceClock), over an IPC channel. */
  clock?: boolean;
}

function parsedLines(text: string): LogLine[] {
  // The last piece is a line still being written.
  return text
    .split('\n')
    .slice(0, -1)
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine);
}

function matches(line: LogLine, msg: string, match: Record<string, unknown>): boolean {
  return line.msg === msg && Object.entries(match).every(([key, value]) => line[key] === value);
}

/**
 * Starts `homecare-sync run -c <configPath>` as its own process, the way a container starts it,
 * and keeps what it prints. `stop()` in the tests is SIGTERM; a hung child is killed after the
 * bounded waits so that no test leaves a process behind.
 */
export function startDaemonProcess(
  configPath: string,
  cwd: string,
  extra: DaemonProcessOptions = {},
): DaemonProcess {
  const clock = extra.clock === true ? { [TEST_CLOCK_ENV]: 'ipc' } : {};
  const child = spawn(
    process.execPath,
    [...(extra.nodeArgs ?? []), builtCli(), 'run', '-c', configPath],
    {
      cwd,
      env: { PATH: process.env['PATH'] ?? '', ...clock, ...extra.env },
      stdio: ['ignore', 'pipe', 'pipe', ...(extra.clock === true ? (['ipc'] as const) : [])],
    },
  );
  const { stdout, stderr } = child;
  if (stdout === null || stderr === null) throw new Error('the daemon process has no pipes');
  let out = '';
  let err = '';
  let ended = false;
  // Checked on every chunk, so a test acts the moment a line appears (no polling gap).
  const waiters = new Set<() => void>();
  const notify = () => [...waiters].forEach((check) => check());
  stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    notify();
  });
  stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const exited = new Promise<number | string>((resolve) =>
    child.on('close', (code, signal) => {
      ended = true;
      resolve(code ?? signal ?? 'unknown');
      notify();
    }),
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error('the daemon process did not start');
  const failure = (msg: string, why: string) =>
    new Error(`the daemon did not log "${msg}" ${why}\nstdout:\n${out}\nstderr:\n${err}`);
  return {
    stdout: () => out,
    lines: () => parsedLines(out),
    stderr: () => err,
    exited,
    signal: (name) => void child.kill(name),
    pid,
    advanceClock(ms) {
      if (extra.clock !== true) throw new Error('the daemon was started without clock: true');
      return new Promise<string>((resolve, reject) => {
        const answered = (message: unknown) => {
          const now = (message as Partial<ClockAnswer> | null)?.clock?.now;
          if (now === undefined) return;
          child.off('message', answered);
          resolve(now);
        };
        child.on('message', answered);
        const message: ClockMessage = { clock: { advanceMs: ms } };
        child.send(message, (error) => {
          if (error === null) return;
          child.off('message', answered);
          reject(error);
        });
      });
    },
    waitForLog(msg, match = {}) {
      return new Promise<LogLine>((resolve, reject) => {
        const done = () => {
          waiters.delete(check);
          clearTimeout(timer);
        };
        const check = () => {
          const line = parsedLines(out).find((l) => matches(l, msg, match));
          if (line) resolve(line);
          else if (ended) reject(failure(msg, 'before it exited'));
          else return;
          done();
        };
        const timer = setTimeout(() => {
          done();
          reject(failure(msg, `within ${WAIT_MS} ms`));
        }, WAIT_MS);
        waiters.add(check);
        check();
      });
    },
  };
}

/** Ends a daemon a test left running (SIGKILL): for afterEach, so no process outlives its test. */
export async function killIfRunning(daemon: DaemonProcess | undefined): Promise<void> {
  if (!daemon) return;
  daemon.signal('SIGKILL');
  await daemon.exited;
}
