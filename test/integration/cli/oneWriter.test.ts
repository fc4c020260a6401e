import { hostname } from 'node:os';
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, withinBound, type DaemonProcess } from '../../support/cli/daemonProcess.js';
import { everyResource } from '../../support/cli/cliFolder.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

interface Status {
  checkpoints: { lastRun?: { ok: boolean } }[];
  queue: { pending: number; running: number };
  delivery: { undelivered: number };
}

const rig = useDaemonRig({
  simulator: { seed: 19 },
  config: {
    sync: {
      reconcile: { enabled: false },
      // No schedule falls due during the test: after the first pass the daemon is idle.
      resources: everyResource(() => ({ schedule: '0 0 1 1 *' })),
    },
  },
});
let daemon: DaemonProcess | undefined;
// Before the rig's own afterAll (they run in reverse order), which kills the daemon.
afterAll(() => {
  daemon?.signal('SIGCONT');
});

async function idle(): Promise<true | undefined> {
  const status = JSON.parse((await rig().f.cli('status', '--json')).stdout) as Status;
  const { pending, running } = status.queue;
  const done = status.checkpoints.length > 0 && status.delivery.undelivered === 0;
  return done && status.checkpoints.every((c) => c.lastRun?.ok) && pending + running === 0
    ? true
    : undefined;
}

describe('one writer per database', () => {
  it('a frozen daemon keeps the database: sync is refused at once, naming its process', async () => {
    const { f, start } = rig();
    daemon = start();
    await daemon.waitForLog('homecare-sync started');
    await eventually('the first pass to be handed over and acknowledged', idle);
    // A frozen process (a paused VM, a stalled disk) still holds its lock: it has not died.
    daemon.signal('SIGSTOP');
    const other = await f.cli('sync', '--once');
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(
      new RegExp(
        `^another homecare-sync is using ${f.database}:\\n  process ${daemon.pid} on ${hostname()} holds it since \\S+; stop that one first\\n$`,
      ),
    );
    // Read-only commands still read beside it.
    const status = await f.cli('status', '--json');
    expect(status.code, status.stderr).toBe(0);
    expect((await f.cli('queue', 'list')).code).toBe(0);
    expect((await f.cli('checkpoint', 'list')).code).toBe(0);

    daemon.signal('SIGCONT');
    const again = await f.cli('run');
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`another homecare-sync is using ${f.database}`);
  }, 90_000);

  it('a daemon whose database is deleted under it stops and exits 1 saying so', async () => {
    if (!daemon) throw new Error('the daemon is not running');
    const { f } = rig();
    rmSync(f.database);
    expect(await withinBound(daemon.exited, 'the daemon to notice the deleted database')).toBe(1);
    const fatal = await daemon.waitForLog(
      `database ${f.database} was deleted or replaced while homecare-sync ran; stopping, since nothing written now would be kept`,
    );
    expect(fatal['level']).toBe('fatal');
    await daemon.waitForLog('homecare-sync stopped');
    expect(daemon.stderr()).toBe(
      `homecare-sync stopped: database ${f.database} was deleted or replaced while it ran; put the file back from a backup, then start it again (with a new, empty database every record is pulled and handed to the ERP again)\n`,
    );
  }, 60_000);
});
