import { beforeAll, describe, expect, it } from 'vitest';
import { withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

const rig = useDaemonRig({
  simulator: { seed: 3 },
  config: {
    sync: { jitterSeconds: 0, resources: { region: { schedule: '* * * * * *' } } },
    log: { level: 'debug' },
  },
});

beforeAll(async () => {
  // Every pull of regions takes 1.5 s and one is due every second: ticks must be skipped.
  await rig().sim.control.setFault({ path: '/region', latencyMs: 1_500 });
});

describe('run: what the daemon prints', () => {
  it('writes only JSON lines to stdout; a tick that meets its run still going is a debug line, none from node-cron', async () => {
    const daemon = rig().start();
    const skipped = await daemon.waitForLog('scheduled run skipped: its last run still goes', {
      task: 'pull region',
    });
    expect(skipped).toMatchObject({ level: 'debug', skipped: 'overlap' });
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
    expect(daemon.stdout()).not.toContain('"source":"node-cron"');
    expect(daemon.stderr()).not.toContain('NODE-CRON');
  });
});
