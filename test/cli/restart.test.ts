import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/shared/clock.js';
import { countJobs, getLease, openStore } from '../../src/store/index.js';
import { api, startTestSimulator, type TestSimulator } from '../support/simulator.js';
import { cliFolder, SIM_KEYS, type CliFolder } from './cliFolder.js';
import {
  eventually,
  killIfRunning,
  startDaemonProcess,
  type DaemonProcess,
} from './daemonProcess.js';

/** The resources whose new records the daemon acknowledges (created → transmitted). */
const ACKNOWLEDGED = ['singleOrder', 'directOrder', 'integratedCare'] as const;
/** The lease a killed daemon leaves lasts up to a minute (src/app/lease.ts), plus margin. */
const LEASE_WAIT_MS = 75_000;

let sim: TestSimulator;
let f: CliFolder;
let daemon: DaemonProcess | undefined;

/** `/<resource>/<_id>` of every record waiting in a `status=created` list. */
async function createdPaths(): Promise<string[]> {
  const paths: string[] = [];
  for (const resource of ACKNOWLEDGED) {
    const listed = await api(
      sim,
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
  const requests = await sim.control.requests();
  return requests.filter((r) => r.method === 'PATCH' && r.status === status).map((r) => r.path);
}

/** Pending or running jobs and the writer lease a killed daemon left in its database. */
function leftBehind(database: string) {
  const store = openStore({ path: database, clock: systemClock });
  try {
    return {
      jobs: countJobs(store, 'pending') + countJobs(store, 'running'),
      leaseExpiresAt: getLease(store, 'writer')?.expiresAt,
    };
  } finally {
    store.close();
  }
}

beforeAll(async () => {
  sim = await startTestSimulator({ keys: SIM_KEYS, seed: 13 });
  // Retries come quickly and never run out, so the jobs are still pending when the kill comes.
  f = cliFolder(sim.url, { retry: { maxAttempts: 1000, baseDelayMs: 50, maxDelayMs: 200 } });
});
afterAll(async () => {
  await killIfRunning(daemon);
  await sim.close();
  f.cleanup();
});

describe('a daemon killed with acknowledgements in flight', () => {
  it('leaves them queued, and the next sync --once acknowledges each order exactly once', async () => {
    const expected = await createdPaths();
    expect(expected.length).toBeGreaterThan(0);
    await sim.control.setFault({ method: 'PATCH', errorStatus: 503 });

    daemon = startDaemonProcess(f.configPath, f.folder);
    await eventually('a refused acknowledgement of every created record', async () => {
      const refused = new Set(await patches(503));
      return expected.every((path) => refused.has(path)) ? true : undefined;
    });
    daemon.signal('SIGKILL');
    expect(await daemon.exited).toBe('SIGKILL');

    const left = leftBehind(f.database);
    expect(left.jobs).toBeGreaterThanOrEqual(expected.length);
    expect(left.leaseExpiresAt).toBeDefined();
    expect(await patches(200)).toEqual([]);

    // The dead daemon's lease still stands: one writer, even after a crash.
    const early = await f.cli('sync', '--once');
    expect(early.code).toBe(1);
    expect(early.stderr).toContain(`another homecare-sync is using ${f.database}`);

    await sim.control.clearFaults();
    const waitMs = Date.parse(left.leaseExpiresAt ?? '') - Date.now() + 1000;
    expect(waitMs).toBeLessThan(LEASE_WAIT_MS);
    await sleep(Math.max(0, waitMs));

    const sync = await f.cli('sync', '--once');
    expect(sync.code, sync.stderr).toBe(0);
    expect((await patches(200)).sort()).toEqual(expected);
    expect(await createdPaths()).toEqual([]);
    expect(leftBehind(f.database).jobs).toBe(0);

    const files = f.outboxFiles();
    for (const path of expected) {
      const [, resource, id] = path.split('/');
      expect(
        files.filter((name) => name.startsWith(`${resource}/${id}_`)),
        path,
      ).toHaveLength(1);
    }
  }, 150_000);
});
