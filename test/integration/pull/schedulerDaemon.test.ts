import { beforeAll, describe, expect, it } from 'vitest';
import { withinBound } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

const rig = useDaemonRig({
  simulator: { seed: 3 },
  config: { sync: { jitterSeconds: 0, resources: { region: { schedule: '* * * * * *' } } } },
});

beforeAll(async () => {
  // Every pull of regions takes 1.5 s and one is due every second: node-cron must skip runs.
  await rig().sim.control.setFault({ path: '/region', latencyMs: 1_500 });
});

describe('run: what the daemon prints', () => {
  it('writes only JSON lines to stdout, node-cron warnings included', async () => {
    const daemon = rig().start();
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
