/**
 * A real full disk: the database on a small tmpfs, filled up before the daemon starts. Needs
 * the right to mount: root (as CI runs) mounts its own tmpfs, and fails when it cannot; another
 * user cannot mount, and the test says so and is skipped —
 * test/integration/e2e/diskFull.test.ts covers each writer with SQLite's own limit.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually, quietFor, withinBound } from '../../support/eventually.js';
import { everyResource } from '../../support/cli/cliFolder.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

/**
 * Mounts a 64 MB tmpfs on a temp folder; undefined for a user who may not mount. Larger than
 * the WAL may grow before SQLite copies it into the database (WAL_CHECKPOINT_PAGES, 40 MB): on a
 * smaller disk the WAL alone fills it up again once the filler is gone.
 */
function mountSmallDisk(): string | undefined {
  if (process.getuid?.() !== 0) {
    console.log('diskFull: only root may mount the tmpfs this test fills; skipped');
    return undefined;
  }
  const folder = mkdtempSync(join(tmpdir(), 'homecare-sync-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m,mode=0700', 'tmpfs', folder], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return folder;
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    const said = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `diskFull: root cannot mount a tmpfs here (${said || String(error)}); run the tests where root has CAP_SYS_ADMIN, as CI does`,
    );
  }
}

const disk = mountSmallDisk();
const TOKEN = 'disk-full-test-token-0123456789';

/** The daemon's readiness checks, as a caller with the token sees them. */
async function readiness(url: string): Promise<Record<string, { ok: boolean; problem?: string }>> {
  const response = await fetch(`${url}/readyz`, { headers: { authorization: `Bearer ${TOKEN}` } });
  return ((await response.json()) as { checks: Record<string, { ok: boolean }> }).checks;
}
const LEFT_FREE = 1024 * 1024;

// After the rig's own afterAll in the describe below, which ends the daemon on the disk.
afterAll(() => {
  if (disk === undefined) return;
  execFileSync('umount', ['-l', disk]);
  rmSync(disk, { recursive: true, force: true });
});

/** Fills the disk up to `leave` bytes with one file; returns its path. */
function fill(folder: string, leave: number): string {
  const { bavail, bsize } = statfsSync(folder);
  const filler = join(folder, 'filler');
  writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - leave)));
  return filler;
}

describe.skipIf(disk === undefined)('a full disk under the database (tmpfs)', () => {
  const rig = useDaemonRig({
    // Enough records that the first pull needs far more than the room left.
    simulator: {
      seed: 31,
      sizes: { singleOrders: 400, directOrders: 200, patients: 60, articles: 200 },
    },
    config: {
      // disk is there where the describe runs at all.
      storage: { path: join(disk ?? '', 'sync.db') },
      sync: {
        jitterSeconds: 0,
        reconcile: { enabled: false },
        resources: everyResource(() => ({ schedule: '*/2 * * * * *' })),
      },
      http: { enabled: true, port: 0, token: TOKEN },
    },
  });

  it('keeps the daemon running with one clear error, and it goes on by itself once there is room', async () => {
    if (disk === undefined) return;
    const { f, start } = rig();
    const filler = fill(disk, LEFT_FREE);
    const daemon = start();
    const started = await daemon.waitForLog('homecare-sync started');
    const url = String(started['url']);
    const full = `database ${join(disk, 'sync.db')} cannot be written: the disk (or its quota) is full; free space there`;
    await eventually('the full disk to be logged', () =>
      daemon.stdout().includes(full) ? true : undefined,
    );
    await eventually('/readyz to say the disk is full', async () =>
      (await readiness(url))['storage']?.problem?.includes(full) === true ? true : undefined,
    );
    // Said once when it starts and once a minute while it lasts; the pulls, jobs and scans that
    // meet it every two seconds do not say it again.
    const saidFull = () =>
      daemon
        .stdout()
        .split('\n')
        .filter((line) => line.includes(full) && line.includes('"level":"error"')).length;
    await eventually('the full disk to be said', () => (saidFull() >= 1 ? true : undefined));
    expect(saidFull()).toBe(1);
    // Said as an error wherever else it is said; the readiness log quotes it in its own warn
    // line (readiness: not ready), and the writers that meet it again say so at debug.
    const notErrors = daemon
      .stdout()
      .split('\n')
      .filter((line) => line.includes(full) && !line.includes('"level":"debug"'))
      .filter((line) => !line.includes('"msg":"readiness: '))
      .filter((line) => !line.includes('"level":"error"'));
    expect(notErrors).toEqual([]);
    // Still running: the full disk paused the work (a small write may still have fitted).
    // Real time: the daemon is a process of its own, its clock the real one.
    let exited = false;
    void daemon.exited.then(() => (exited = true));
    await quietFor(500, 'the daemon running on a full disk', () => !exited);

    rmSync(filler);
    await eventually(
      'every pull to succeed and everything to reach the ERP',
      async () => {
        const status = JSON.parse((await f.cli('status', '--json')).stdout) as {
          checkpoints: { lastRun?: { ok: boolean } }[];
          delivery: { undelivered: number };
        };
        const pulled = status.checkpoints.every((c) => c.lastRun?.ok === true);
        return pulled && status.delivery.undelivered === 0 && f.outboxFiles().length > 0
          ? true
          : undefined;
      },
      90_000,
    );
    const back = `database ${join(disk, 'sync.db')} can be written again`;
    await eventually(
      'the room to be said back',
      () => (daemon.stdout().includes(back) ? true : undefined),
      60_000,
    );
    expect((await readiness(url))['storage']).toEqual({ ok: true });
    expect(saidFull()).toBeLessThanOrEqual(3);
    daemon.signal('SIGTERM');
    expect(await withinBound(daemon.exited, 'the daemon to stop')).toBe(0);
  }, 240_000);
});
