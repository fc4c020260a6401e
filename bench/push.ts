import { join } from 'node:path';
import { Pool } from 'undici';
import { createLogger } from '../src/log/index.js';
import { createPlatformClient, type PlatformClient } from '../src/platform/index.js';
import { createQueueWorker, enqueue } from '../src/queue/index.js';
import { createHandlers } from '../src/queue/handlers/index.js';
import { systemClock } from '../src/shared/clock.js';
import { countJobs, openStore, type Store } from '../src/store/index.js';
import { pullTarget } from '../src/sync/puller.js';
import { sqlitePullStore } from '../src/sync/pullStore.js';
import { pullTargets } from '../src/sync/targets.js';
import type { Benchmark } from './support/benchmark.js';
import { count, rate, ratio, seconds } from './support/format.js';
import { startSimulatorProcess, type SimulatorProcess } from './support/simulatorProcess.js';
import { withTempFolder } from './support/tempFolder.js';

const ORDERS = 2_000;
/** The daemon's default platform.concurrency and queue.concurrency. */
const CONCURRENCY = 4;
const ROUNDS = 2;
const WARM_UP = 200;
const API_KEY = 'demo-key';

/** A fresh simulator seed with `ORDERS` more created single orders; their ids. */
async function createdOrders(sim: SimulatorProcess): Promise<string[]> {
  await sim.control('POST', '/reset');
  const response = await fetch(
    `${sim.url}/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z`,
    { headers: { 'service-api-key': 'demo-key-2' } },
  );
  const [seeded] = (await response.json()) as Record<string, unknown>[];
  if (seeded === undefined) throw new Error('the simulator seed has no created single order');
  const { patientId, integratedCareId, orderedArticleLines } = seeded;
  const record = { status: 0, patientId, integratedCareId, orderedArticleLines };
  const ids: string[] = [];
  for (let n = 0; n < ORDERS; n++) {
    ids.push(String((await sim.control('POST', '/records/singleOrder', { record }))['_id']));
  }
  return ids;
}

/** The raw limit: undici PATCHes {status: 1}, `CONCURRENCY` at a time, nothing stored. */
async function rawPatches(sim: SimulatorProcess, ids: readonly string[]): Promise<number> {
  const pool = new Pool(sim.url, { connections: CONCURRENCY });
  const headers = { 'service-api-key': API_KEY, 'content-type': 'application/json' };
  let next = 0;
  const lane = async () => {
    while (next < ids.length) {
      const id = ids[next++] ?? '';
      const { statusCode, body } = await pool.request({
        path: `/singleOrder/${id}`,
        method: 'PATCH',
        headers,
        body: JSON.stringify({ status: 1 }),
      });
      await body.dump();
      if (statusCode !== 200) throw new Error(`raw PATCH ${id} answered ${statusCode}`);
    }
  };
  const started = performance.now();
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, lane));
    return performance.now() - started;
  } finally {
    await pool.close();
  }
}

/** The orders into the mirror by the real puller, as the daemon has them before acknowledging. */
async function mirrorOrders(store: Store, client: PlatformClient): Promise<void> {
  const target = pullTargets(client.contract).find(
    (t) => t.resource === 'singleOrder' && t.filter === 'created',
  );
  if (target === undefined) throw new Error('variant B lists no created single orders');
  const settings = { overlapSeconds: 120, createdLookbackDays: 30, batchSize: 500 };
  const summary = await pullTarget(
    { store: sqlitePullStore(store), source: client, clock: systemClock, settings },
    target,
  );
  if (!summary.ok) throw new Error(`push: the pull failed: ${summary.error ?? ''}`);
  // The pull also queues each order's hand-over to the ERP; this benchmark measures only the
  // acknowledgements, so those jobs go (they would otherwise run, undelivered, in the drain).
  store.db.prepare("DELETE FROM queue WHERE kind LIKE 'deliver.%'").run();
}

/** The same PATCHes as acknowledgement jobs through the durable queue: enqueue, then drain. */
async function queuedPatches(sim: SimulatorProcess, ids: readonly string[]) {
  return withTempFolder(async (folder) => {
    const store = openStore({ path: join(folder, 'homecare-sync.db'), clock: systemClock });
    const logger = createLogger({ level: 'warn' });
    const client = createPlatformClient({
      baseUrl: sim.url,
      apiKey: API_KEY,
      variant: 'B',
      timeoutMs: 30_000,
      concurrency: CONCURRENCY,
      clock: systemClock,
    });
    const worker = createQueueWorker({
      store,
      handlers: createHandlers(),
      context: { client, store, contract: client.contract, clock: systemClock, logger },
      clock: systemClock,
      logger,
      concurrency: CONCURRENCY,
      retry: { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 5_000 },
    });
    try {
      await mirrorOrders(store, client);
      let started = performance.now();
      for (const id of ids) {
        enqueue(store, {
          kind: 'ack.singleOrder',
          entityKey: `singleOrder:${id}`,
          payload: { resource: 'singleOrder', id },
        });
      }
      const enqueueMs = performance.now() - started;
      started = performance.now();
      const { ran, waiting } = await worker.runUntilEmpty();
      const drainMs = performance.now() - started;
      const done = countJobs(store, 'done');
      if (ran !== ids.length || waiting !== 0 || done !== ids.length) {
        throw new Error(`push: ran ${ran}, done ${done}, waiting ${waiting} of ${ids.length} jobs`);
      }
      return { enqueueMs, drainMs };
    } finally {
      await worker.stop();
      await client.close();
      store.close();
    }
  });
}

export const pushBenchmark: Benchmark = {
  name: 'push',
  description: `${count(ORDERS)} acknowledgements (PATCH status 1) through the durable queue against a raw undici PATCH loop, concurrency ${CONCURRENCY}, simulator in its own process`,
  async run(print) {
    const sim = await startSimulatorProcess();
    const ratios: string[] = [];
    try {
      // Not counted: the first PATCHes of a process pay for compiling and connecting.
      await rawPatches(sim, (await createdOrders(sim)).slice(0, WARM_UP));
      for (let round = 1; round <= ROUNDS; round++) {
        const rawMs = await rawPatches(sim, await createdOrders(sim));
        const { enqueueMs, drainMs } = await queuedPatches(sim, await createdOrders(sim));
        const rawRate = (ORDERS * 1000) / rawMs;
        const drained = ratio((ORDERS * 1000) / drainMs, rawRate);
        const whole = ratio((ORDERS * 1000) / (enqueueMs + drainMs), rawRate);
        print(
          `round ${round}: raw ${seconds(rawMs)}, ${rate(ORDERS, rawMs)}; queue: enqueue ${seconds(enqueueMs)} ` +
            `(one transaction each, as delivery queues them), drain ${seconds(drainMs)}, ${rate(ORDERS, drainMs)}; ` +
            `ratio drain ${drained}, enqueue + drain ${whole}`,
        );
        ratios.push(`${drained} (${whole} with enqueue)`);
      }
    } finally {
      await sim.stop();
    }
    return `queue against raw PATCH loop: ${ratios.join(', ')}`;
  },
};
