import { describe, expect, it } from 'vitest';
import { withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';
import { answeringUntil } from '../../support/simulator.js';

const rig = useDaemonRig({
  simulator: { seed: 3 },
  config: {
    sync: { jitterSeconds: 0, resources: { region: { schedule: '* * * * * *' } } },
    log: { level: 'debug' },
  },
});

describe('run: what the daemon prints', () => {
  it('writes only JSON lines to stdout; a tick that meets its run still going is a debug line, none from node-cron', async () => {
    const daemon = rig().start();
    // Once the first pass has the regions, their pulls wait for the simulator's clock, which the
    // test holds, and one is due every second of the daemon's real time: ticks must be skipped.
    await daemon.waitForLog('pull finished', { resource: 'region' });
    await rig().sim.control.setFault({ path: '/region', latencyMs: 1_500 });
    const skipped = await daemon.waitForLog('scheduled run skipped: its last run still goes', {
      task: 'pull region',
    });
    expect(skipped).toMatchObject({ level: 'debug', skipped: 'overlap' });
    daemon.signal('SIGTERM');
    // The pull under way ends when its list is answered; the stop waits for it.
    await answeringUntil(rig().sim, 1_500, withinBound(daemon.exited, 'the daemon to stop'));
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
    expect(daemon.stdout()).not.toContain('"source":"node-cron"');
    expect(daemon.stderr()).not.toContain('NODE-CRON');
  });
});
