import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';
import { cliFolder, SIM_KEYS, type CliFolder } from '../../support/cli/cliFolder.js';
import {
  killIfRunning,
  startDaemonProcess,
  withinBound,
  type DaemonProcess,
} from '../../support/cli/daemonProcess.js';

let sim: TestSimulator;
let f: CliFolder;
let daemon: DaemonProcess | undefined;

beforeAll(async () => {
  sim = await startTestSimulator({ keys: SIM_KEYS, seed: 17 });
  // Debug: every finished pull logs a line then, also one that found nothing.
  f = cliFolder(sim.url, { log: { level: 'debug' } });
});
afterAll(async () => {
  await killIfRunning(daemon);
  await sim.close();
  f.cleanup();
});

describe('run: SIGTERM during the first pull of a slow platform', () => {
  it('finishes the pull under way, starts no other, exits 0 and leaves the database to the next run', async () => {
    // Every list takes a second: the whole first pass would take far longer than a stop may.
    await sim.control.setFault({ method: 'GET', latencyMs: 1000 });
    daemon = startDaemonProcess(f.configPath, f.folder);
    await daemon.waitForLog('pull finished');
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to exit after SIGTERM')).toBe(0);
    await daemon.waitForLog('homecare-sync stopped');
    expect(daemon.stdout()).not.toContain('did not stop within');
    const pulled = daemon
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"pull finished"'));

    const list = await f.cli('checkpoint', 'list', '--json');
    const checkpoints = JSON.parse(list.stdout) as { resource: string }[];
    expect(checkpoints.length).toBe(pulled.length);

    await sim.control.clearFaults();
    const sync = await f.cli('sync', '--once');
    expect(sync.code, sync.stderr).toBe(0);
    const status = await f.cli('status', '--json');
    const parsed = JSON.parse(status.stdout) as { delivery: { undelivered: number } };
    expect(parsed.delivery.undelivered).toBe(0);
  }, 120_000);
});
