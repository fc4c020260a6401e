import { describe, expect, it } from 'vitest';
import { withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';
import { answeringUntil } from '../../support/simulator.js';

const rig = useDaemonRig({
  simulator: { seed: 17 },
  // Debug: every finished pull logs a line then, also one that found nothing.
  config: { log: { level: 'debug' } },
});

describe('run: SIGTERM during the first pull of a slow platform', () => {
  it('ends the pulls under way at a batch boundary, starts no other, exits 0 and leaves the database to the next run', async () => {
    const { sim, f, start } = rig();
    // Every list takes a second of the simulator's clock, which moves only when the test says.
    await sim.control.setFault({ method: 'GET', latencyMs: 1000 });
    const daemon = start();
    await answeringUntil(sim, 1000, daemon.waitForLog('pull finished'));
    daemon.signal('SIGTERM');
    // The lists under way are answered as their time comes; no other is asked for.
    const { value: code } = await answeringUntil(
      sim,
      1000,
      withinBound(daemon.exited, 'the daemon to exit after SIGTERM'),
    );
    expect(code).toBe(0);
    expect(sim.fakeClock().sleeping()).toBe(0);
    await daemon.waitForLog('homecare-sync stopped');
    expect(daemon.stdout()).not.toContain('did not stop within');
    const pulled = daemon
      .stdout()
      .split('\n')
      .filter((line) => line.includes('"pull finished"'));

    const stopped = daemon
      .stdout()
      .split('\n')
      .filter((line) => line.includes(' stopped at a batch boundary for the daemon to stop'));
    expect(stopped.length).toBeGreaterThan(0);
    // Only a pull that finished moved its checkpoint; one stopped kept it where it was.
    const list = await f.cli('checkpoint', 'list', '--json');
    const checkpoints = JSON.parse(list.stdout) as { resource: string; watermark?: string }[];
    const moved = checkpoints.filter((checkpoint) => checkpoint.watermark !== undefined);
    expect(moved.length).toBe(pulled.length);

    await sim.control.clearFaults();
    const sync = await f.cli('sync', '--once');
    expect(sync.code, sync.stderr).toBe(0);
    const status = await f.cli('status', '--json');
    const parsed = JSON.parse(status.stdout) as { delivery: { undelivered: number } };
    expect(parsed.delivery.undelivered).toBe(0);
  }, 120_000);
});
