import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/shared/clock.js';
import { countJobs, openStore, readHolder } from '../../../src/store/index.js';
import { api } from '../../support/simulator.js';
import { eventually } from '../../support/cli/daemonProcess.js';
import { useDaemonRig } from '../../support/cli/daemonRig.js';

/** The resources whose new records the daemon acknowledges (created → transmitted). */
const ACKNOWLEDGED = ['singleOrder', 'directOrder', 'integratedCare'] as const;

const rig = useDaemonRig({
  simulator: { seed: 13 },
  // Retries come quickly and never run out, so the jobs are still pending when the kill comes.
  config: { retry: { maxAttempts: 1000, baseDelayMs: 50, maxDelayMs: 200 } },
});

/** `/<resource>/<_id>` of every record waiting in a `status=created` list. */
async function createdPaths(): Promise<string[]> {
  const paths: string[] = [];
  for (const resource of ACKNOWLEDGED) {
    const listed = await api(
      rig().sim,
      'GET',
      `/${resource}?status=created&updatedAfter=2000-01-01T00:00:00Z`,
      {
        key: 'demo-key-2',
      },
    );
    for (const record of listed.json as { _id: string }[]) paths.push(`/${resource}/${record._id}`);
  }
  return paths.sort();
}

async function patches(status: number): Promise<string[]> {
  const requests = await rig().sim.control.requests();
  return requests.filter((r) => r.method === 'PATCH' && r.status === status).map((r) => r.path);
}

/** Pending or running jobs a killed daemon left in its database. */
function jobsLeft(database: string): number {
  const store = openStore({ path: database, clock: systemClock });
  try {
    return countJobs(store, 'pending') + countJobs(store, 'running');
  } finally {
    store.close();
  }
}

describe('a daemon killed with acknowledgements in flight', () => {
  it('leaves them queued, and a sync --once started at once acknowledges each order exactly once', async () => {
    const { sim, f, start } = rig();
    const expected = await createdPaths();
    expect(expected.length).toBeGreaterThan(0);
    await sim.control.setFault({ method: 'PATCH', errorStatus: 503 });

    const daemon = start();
    await eventually('a refused acknowledgement of every created record', async () => {
      const refused = new Set(await patches(503));
      return expected.every((path) => refused.has(path)) ? true : undefined;
    });
    const pid = daemon.pid;
    daemon.signal('SIGKILL');
    expect(await daemon.exited).toBe('SIGKILL');

    expect(jobsLeft(f.database)).toBeGreaterThanOrEqual(expected.length);
    expect(await patches(200)).toEqual([]);
    // The lock file still names the dead process, but the OS released its lock with it.
    expect(readHolder(f.database)?.pid).toBe(pid);

    await sim.control.clearFaults();
    const sync = await f.cli('sync', '--once');
    expect(sync.code, sync.stderr).toBe(0);
    expect((await patches(200)).sort()).toEqual(expected);
    expect(await createdPaths()).toEqual([]);
    expect(jobsLeft(f.database)).toBe(0);

    const files = f.outboxFiles();
    for (const path of expected) {
      const [, resource, id] = path.split('/');
      expect(
        files.filter((name) => name.startsWith(`${resource}/${id}_`)),
        path,
      ).toHaveLength(1);
    }
  }, 90_000);
});
