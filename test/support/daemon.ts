import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { contractFor, type Variant } from '../../src/contract/index.js';
import { createPlatformClient, type PlatformClient } from '../../src/platform/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import type { PullBoundSettings } from '../../src/pull/pullBounds.js';
import { pullTarget, type PullStore, type PullSummary } from '../../src/pull/puller.js';
import { sqlitePullStore } from '../../src/pull/pullStore.js';
import { createPullRunner, type PullRunner } from '../../src/pull/runner.js';
import { pullTargets } from '../../src/pull/targets.js';
import { FakeClock } from './fakeClock.js';

export const SIM_START = '2026-03-01T08:00:00.000Z';

/** The pull side of a daemon against a simulator: real store on disk, real client, fake clock. */
export interface PullRig {
  clock: FakeClock;
  store: Store;
  client: PlatformClient;
  runner: PullRunner;
  /** A new client and runner over the same store and clock, as after a restart. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

export function startPullRig(
  simulatorUrl: string,
  variant: Variant,
  options: {
    apiKey?: string;
    batchSize?: number;
    timeoutMs?: number;
    attempts?: number;
    bounds?: PullBoundSettings;
    /** The daemon's clock (e.g. a TickingClock); a FakeClock at SIM_START unless given. */
    clock?: FakeClock;
  } = {},
): PullRig {
  const folder = mkdtempSync(join(tmpdir(), 'homecare-sync-pull-'));
  const clock = options.clock ?? new FakeClock(SIM_START);
  const store = openStore({ path: join(folder, 'sync.db'), clock });
  const newClient = () =>
    createPlatformClient({
      baseUrl: simulatorUrl,
      apiKey: options.apiKey ?? 'demo-key',
      variant,
      timeoutMs: options.timeoutMs ?? 5_000,
      concurrency: 2,
      clock,
      retry: { attempts: options.attempts ?? 3, baseDelayMs: 1, maxDelayMs: 1 },
      sleep: () => Promise.resolve(),
    });
  const settings = {
    overlapSeconds: 120,
    createdLookbackDays: 30,
    batchSize: options.batchSize ?? 500,
    ...options.bounds,
  };
  const newRunner = (client: PlatformClient) =>
    createPullRunner(
      { store: sqlitePullStore(store, () => undefined), source: client, clock, settings },
      pullTargets(contractFor(variant)),
      pino({ enabled: false }),
    );
  const client = newClient();
  const rig: PullRig = {
    clock,
    store,
    client,
    runner: newRunner(client),
    async restart() {
      await rig.client.close();
      rig.client = newClient();
      rig.runner = newRunner(rig.client);
    },
    async close() {
      await rig.client.close();
      store.close();
      rmSync(folder, { recursive: true, force: true });
    },
  };
  return rig;
}

/**
 * One pull of variant B's created single orders from `url` at a time, by the real puller on a
 * pull rig; `wrap` may stand between the puller and its store.
 */
export function createdOrdersPull(
  url: string,
  { batchSize = 500, wrap = (store: PullStore) => store } = {},
): { rig: PullRig; pull: () => Promise<PullSummary> } {
  const rig = startPullRig(url, 'B', { batchSize });
  const target = pullTargets(rig.client.contract).find(
    (t) => t.resource === 'singleOrder' && t.filter === 'created',
  );
  if (target === undefined) throw new Error('variant B lists no created single orders');
  const deps = {
    store: wrap(sqlitePullStore(rig.store, () => undefined)),
    source: rig.client,
    clock: rig.clock,
    settings: { overlapSeconds: 120, createdLookbackDays: 30, batchSize },
  };
  return { rig, pull: () => pullTarget(deps, target) };
}
