import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lockFileOf, readHolder, takeLock, type HeldLock } from '../../../src/store/index.js';
import { REPO_ROOT } from '../../support/cli.js';

let folder: string;
let database: string;
const held: HeldLock[] = [];
beforeEach(() => {
  folder = fs.mkdtempSync(path.join(os.tmpdir(), 'homecare-sync-lock-'));
  database = path.join(folder, 'sync.db');
});
afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
  fs.rmSync(folder, { recursive: true, force: true });
});

const holder = (pid: number) => ({ pid, host: 'host-a', since: '2026-01-15T08:00:00.000Z' });

function take(pid: number) {
  const attempt = takeLock(database, holder(pid));
  if ('held' in attempt) held.push(attempt.held);
  return attempt;
}

/** A process that takes the lock, says so, and waits to be killed. */
function lockingProcess(): Promise<{ kill(): Promise<void> }> {
  const module = pathToFileURL(path.join(REPO_ROOT, 'src/store/writerLock.ts')).href;
  const script = `import { takeLock } from ${JSON.stringify(module)};
    const a = takeLock(${JSON.stringify(database)}, { pid: process.pid, host: 'child', since: 'now' });
    console.log('held' in a ? 'locked' : 'refused'); setInterval(() => {}, 1000);`;
  const loader = pathToFileURL(path.join(REPO_ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
  const child = spawn(process.execPath, ['--import', loader, '--input-type=module', '-e', script]);
  const exited = new Promise((resolve) => child.on('close', resolve));
  return new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').once('data', (line: string) => {
      if (line.trim() !== 'locked') reject(new Error(`the child said ${line}`));
      resolve({
        kill: async () => {
          child.kill('SIGKILL');
          await exited;
        },
      });
    });
  });
}

describe('the writer lock', () => {
  it('refuses a second taker at once, naming the holder, and is free again after release', () => {
    const first = take(101);
    expect('held' in first).toBe(true);
    expect(take(202)).toEqual({ refused: holder(101) });
    if ('held' in first) first.held.release();
    expect('held' in take(202)).toBe(true);
    expect(readHolder(database)).toEqual(holder(202));
  });

  it('is free the moment the process holding it is killed', async () => {
    const child = await lockingProcess();
    expect(take(101)).toMatchObject({ refused: { host: 'child' } });
    await child.kill();
    expect('held' in take(101)).toBe(true);
  }, 30_000);

  it('lets readers name the holder while it is held, and lives in an owner-only file', () => {
    take(101);
    expect(readHolder(database)).toEqual(holder(101));
    expect(fs.statSync(lockFileOf(database)).mode & 0o777).toBe(0o600);
  });

  it('names nobody when no lock file exists', () => {
    expect(readHolder(database)).toBeUndefined();
  });
});
