import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The CLI's entry, built once for the run (see builtCli.ts): started as the image starts it. */
export const builtCli = (): string => inject('builtCli');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunCliOptions {
  /** The child's whole environment (PATH is added); the test runner's variables do not leak in. */
  env?: Record<string, string>;
  cwd?: string;
  /** Kills the child after this long; generous, only to keep a hung test from hanging CI. */
  timeoutMs?: number;
  /** Closes the reading end of stdout at once, as `| head` does after the lines it wanted. */
  closeStdout?: boolean;
  /** What is piped into the command's stdin (none: stdin is closed at once). */
  input?: string;
}

/** Runs `homecare-sync <args>` as a user would, and collects what it printed. */
export function runCli(args: readonly string[], options: RunCliOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [builtCli(), ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: options.timeoutMs ?? 60_000,
    });
    child.stdin.end(options.input);
    let stdout = '';
    let stderr = '';
    if (options.closeStdout === true) child.stdout.destroy();
    else child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
