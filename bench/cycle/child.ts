import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** A program under measurement, started as its own process. */
export interface RunningProgram {
  pid: number;
  /** performance.timeOrigin-based wall time (ms since the epoch) of the spawn. */
  spawnedAt: number;
  /** The last lines it printed, for the error when it fails. */
  output(): string;
  /** SIGTERM, then SIGKILL after a few seconds; resolves once it exited. */
  stop(): Promise<void>;
}

const KEEP_CHARS = 8_000;
const STOP_GRACE_MS = 5_000;

/** Spawns `node <args>` in `cwd` with only PATH and `env`, keeping the tail of what it prints. */
export function startNode(args: readonly string[], cwd: string, env: Record<string, string>) {
  const spawnedAt = Date.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-KEEP_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = once(child, 'exit');
  if (child.pid === undefined) throw new Error(`node ${args.join(' ')} did not start`);
  const running: RunningProgram = {
    pid: child.pid,
    spawnedAt,
    output: () => tail,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      await exited;
      clearTimeout(timer);
    },
  };
  return running;
}
