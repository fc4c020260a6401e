import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliFolder, SIM_KEYS, type CliFolder } from '../../support/cli/cliFolder.js';
import {
  killIfRunning,
  startDaemonProcess,
  withinBound,
  type DaemonProcess,
} from '../../support/cli/daemonProcess.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

let sim: TestSimulator;
let f: CliFolder;
let daemon: DaemonProcess | undefined;

beforeAll(async () => {
  sim = await startTestSimulator({ keys: SIM_KEYS, seed: 3 });
  // Every pull of regions takes 1.5 s and one is due every second: node-cron must skip runs.
  await sim.control.setFault({ path: '/region', latencyMs: 1_500 });
  f = cliFolder(sim.url, {
    sync: { jitterSeconds: 0, resources: { region: { schedule: '* * * * * *' } } },
  });
}, 60_000);
afterAll(async () => {
  await killIfRunning(daemon);
  await sim.close();
  f.cleanup();
});

describe('run: what the daemon prints', () => {
  it('writes only JSON lines to stdout, node-cron warnings included', async () => {
    daemon = startDaemonProcess(f.configPath, f.folder);
    const skipped = await daemon.waitForLog(
      'task still running, new execution blocked by overlap prevention!',
      { task: 'pull region' },
    );
    expect(skipped).toMatchObject({ level: 'warn', source: 'node-cron' });
    daemon.signal('SIGTERM');
    await withinBound(daemon.exited, 'the daemon to stop');
    const lines = daemon
      .stdout()
      .split('\n')
      .filter((line) => line !== '');
    expect(lines.length).toBeGreaterThan(0);
    const notJson = lines.filter((line) => {
      try {
        return typeof JSON.parse(line) !== 'object';
      } catch {
        return true;
      }
    });
    expect(notJson).toEqual([]);
    expect(daemon.stderr()).not.toContain('NODE-CRON');
  });
});
