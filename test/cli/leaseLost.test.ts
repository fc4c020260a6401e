import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractFor } from '../../src/contract/index.js';
import { systemClock } from '../../src/shared/clock.js';
import { getLease, openStore } from '../../src/store/index.js';
import { pullTargets } from '../../src/sync/targets.js';
import { startTestSimulator, type TestSimulator } from '../support/simulator.js';
import { cliFolder, SIM_KEYS, type CliFolder } from './cliFolder.js';
import {
  eventually,
  killIfRunning,
  startDaemonProcess,
  withinBound,
  type DaemonProcess,
} from './daemonProcess.js';

interface Status {
  checkpoints: { lastRun?: { ok: boolean } }[];
  queue: { pending: number; running: number };
  delivery: { undelivered: number };
}

let sim: TestSimulator;
let f: CliFolder;
let daemon: DaemonProcess | undefined;

function leaseExpiresAt(database: string): string | undefined {
  const store = openStore({ path: database, clock: systemClock });
  try {
    return getLease(store, 'writer')?.expiresAt;
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  sim = await startTestSimulator({ keys: SIM_KEYS, seed: 19 });
  // No schedule falls due during the test, so that after the first pass the daemon is idle and
  // the freeze below does not catch it inside a write transaction (that would lock everyone out).
  const never = { schedule: '0 0 1 1 *' };
  const resources = [...new Set(pullTargets(contractFor('B')).map((t) => t.resource))];
  f = cliFolder(sim.url, {
    sync: {
      reconcile: { enabled: false },
      resources: Object.fromEntries(resources.map((resource) => [resource, never])),
    },
  });
});
afterAll(async () => {
  daemon?.signal('SIGCONT');
  await killIfRunning(daemon);
  await sim.close();
  f.cleanup();
});

describe('run: a daemon that lost its lease', () => {
  it('stops writing and exits 1 once it finds another process took the database', async () => {
    daemon = startDaemonProcess(f.configPath, f.folder);
    await daemon.waitForLog('homecare-sync started');
    await eventually('the first pass to be handed over and acknowledged', async () => {
      const status = JSON.parse((await f.cli('status', '--json')).stdout) as Status;
      const { pending, running } = status.queue;
      const idle = status.checkpoints.length > 0 && status.delivery.undelivered === 0;
      return idle && status.checkpoints.every((c) => c.lastRun?.ok) && pending + running === 0
        ? true
        : undefined;
    });
    // A frozen process (a paused VM, a stalled disk) cannot renew its lease.
    daemon.signal('SIGSTOP');
    const expiresAt = leaseExpiresAt(f.database);
    expect(expiresAt).toBeDefined();
    await sleep(Math.max(0, Date.parse(expiresAt ?? '') - Date.now() + 1000));

    const other = await f.cli('sync', '--once');
    expect(other.stderr).not.toContain('another homecare-sync is using');

    daemon.signal('SIGCONT');
    expect(await withinBound(daemon.exited, 'the daemon to notice the lost lease')).toBe(1);
    const fatal = await daemon.waitForLog(
      'another process took the database lease; stopping so that only one writes',
    );
    expect(fatal['level']).toBe('fatal');
    await daemon.waitForLog('homecare-sync stopped');
    expect(daemon.stderr()).toBe(
      `homecare-sync stopped: another process took the lease on ${f.database} (this one could not renew it for a minute, e.g. while frozen); make sure only one homecare-sync uses that database, then start it again\n`,
    );
  }, 150_000);
});
