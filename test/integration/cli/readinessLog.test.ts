import { describe, expect, it } from 'vitest';
import { BREAKER_PAUSE_MS } from '../../../src/platform/breaker.js';
import {
  eventually,
  withinBound,
  type DaemonProcess,
  type LogLine,
} from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

const TOKEN = 'readiness-log-token-8c2f41e0';

const rig = useDaemonRig({
  simulator: { seed: 4 },
  config: { http: { enabled: true, port: 0, token: TOKEN, readyCheckSeconds: 1 } },
});

function readinessLines(daemon: DaemonProcess): LogLine[] {
  return daemon.lines().filter((line) => String(line.msg).startsWith('readiness: '));
}

describe('readiness changes are logged by the daemon itself (issue 37.6)', () => {
  it('once when it stops being ready and once when it is ready again, with nobody asking /readyz', async () => {
    const { sim, start } = rig();
    const daemon = start({ clock: true });
    await daemon.waitForLog('homecare-sync started');
    await eventually('the first look, ready', () =>
      readinessLines(daemon).find((line) => line.msg === 'readiness: ready'),
    );
    await sim.control.setFault({ path: '/region', errorStatus: 500 });
    const down = await eventually('the line that says it is not ready', () =>
      readinessLines(daemon).find((line) => String(line.msg).startsWith('readiness: not ready')),
    );
    expect(down.level).toBe('warn');
    expect(String(down.msg)).toMatch(/platform: GET \/region .*HTTP 500/);
    await sim.control.clearFaults();
    // The region list's breaker pauses the probe: its pause passes on the daemon's clock.
    await daemon.advanceClock(BREAKER_PAUSE_MS);
    const back = await eventually('the line that says it is ready again', () =>
      readinessLines(daemon).find((line) => String(line.msg).startsWith('readiness: ready again')),
    );
    expect(back.level).toBe('info');
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to stop')).toBe(0);
    expect(
      readinessLines(daemon).map((line) => [line.level, String(line.msg).slice(0, 25)]),
    ).toEqual([
      ['info', 'readiness: ready'],
      ['warn', 'readiness: not ready: pla'],
      ['info', 'readiness: ready again (n'],
    ]);
  }, 60_000);
});
