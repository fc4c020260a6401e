import { join } from 'node:path';
import { Pool } from 'undici';
import { createLogger } from '../src/log/index.js';
import { createPlatformClient, type PlatformClient } from '../src/platform/index.js';
import type { Contract } from '../src/contract/index.js';
import { createQueueWorker, enqueue } from '../src/queue/index.js';
import { PASS_CLAIM_LIMIT } from '../src/queue/claim.js';
import { GROUP_MAX_OUTCOMES } from '../src/queue/outcomeGroup.js';
import { createHandlers } from '../src/pushback/index.js';
import { systemClock } from '../src/shared/clock.js';
import {
  countJobs,
  getMirror,
  markDelivered,
  openStore,
  setAckState,
  transaction,
  type Store,
} from '../src/store/index.js';
import { acknowledgementOf } from '../src/deliver/acknowledge.js';
import { pullTarget } from '../src/pull/puller.js';
import { sqlitePullStore } from '../src/pull/pullStore.js';
import { pullTargets } from '../src/pull/targets.js';
import type { Benchmark } from './support/benchmark.js';
import { count, rate, ratio, seconds } from './support/format.js';
import { profiled } from './support/profile.js';
import { startSimulatorProcess, type SimulatorProcess } from './support/simulatorProcess.js';
import { withTempFolder } from './support/tempFolder.js';

const ORDERS = 2_000;
/** The daemon's default platform.concurrency and queue.concurrency. */
const CONCURRENCY = 4;
const ROUNDS = 2;
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

/** Wall and CPU time (user + system, this process: the simulator runs in its own) of `work`. */
async function timed<T>(work: () => Promise<T>): Promise<{ result: T; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  return { result, ms, cpuMs: (user + system) / 1000 };
}

/** CPU milliseconds per 1,000 PATCHes. */
const cpuPerThousand = (cpuMs: number) => `cpu ${((cpuMs * 1000) / ORDERS).toFixed(0)} ms/1,000`;

/** PATCHes {status: 1} to each of `ids`, `CONCURRENCY` at a time; `done` hears of each. */
async function patchAll(pool: Pool, ids: readonly string[], done?: (id: string) => void) {
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
      done?.(id);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
}

/** Runs `use` with an undici pool of `CONCURRENCY` connections to the simulator. */
async function withPool<T>(sim: SimulatorProcess, use: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = new Pool(sim.url, { connections: CONCURRENCY });
  try {
    return await use(pool);
  } finally {
    await pool.close();
  }
}

/** The raw limit: undici PATCHes {status: 1}, `CONCURRENCY` at a time, nothing stored. */
function rawPatches(sim: SimulatorProcess, ids: readonly string[]) {
  return withPool(sim, (pool) => timed(() => patchAll(pool, ids)));
}

/**
 * The floor of any durable queue: the raw loop's PATCHes, with only a job row per PATCH in a
 * database opened as the daemon opens its own: claimed PASS_CLAIM_LIMIT at a time in one
 * commit, marked done GROUP_MAX_OUTCOMES to a commit. No mirror, no fingerprint, no status read:
 * a queue that also keeps those cannot drain faster than this.
 */
async function floorPatches(sim: SimulatorProcess, ids: readonly string[]) {
  return withTempFolder((folder) =>
    withPool(sim, async (pool) => {
      const store = openStore({ path: join(folder, 'floor.db'), clock: systemClock });
      try {
        const { db } = store;
        db.exec(`CREATE TABLE floor_jobs (id INTEGER PRIMARY KEY, order_id TEXT NOT NULL,
          state TEXT NOT NULL DEFAULT 'pending') STRICT;
          CREATE INDEX floor_jobs_state ON floor_jobs (state, id)`);
        const queue = db.prepare<[string]>('INSERT INTO floor_jobs (order_id) VALUES (?)');
        transaction(store, () => ids.forEach((id) => queue.run(id)));
        const claim = db.prepare<[number], { id: number; order_id: string }>(
          `UPDATE floor_jobs SET state = 'running' WHERE id IN
             (SELECT id FROM floor_jobs WHERE state = 'pending' ORDER BY id LIMIT ?)
           RETURNING id, order_id`,
        );
        const markDone = db.prepare<[number]>("UPDATE floor_jobs SET state = 'done' WHERE id = ?");
        let ended: number[] = [];
        const commit = () => {
          transaction(store, () => ended.forEach((id) => markDone.run(id)));
          ended = [];
        };
        return await timed(async () => {
          for (;;) {
            const claimed = transaction(store, () => claim.all(PASS_CLAIM_LIMIT));
            if (claimed.length === 0) return;
            const jobOf = new Map(claimed.map((job) => [job.order_id, job.id]));
            await patchAll(pool, [...jobOf.keys()], (orderId) => {
              const job = jobOf.get(orderId);
              if (job !== undefined) ended.push(job);
              if (ended.length === GROUP_MAX_OUTCOMES) commit();
            });
            commit();
          }
        });
      } finally {
        store.close();
      }
    }),
  );
}

/** The orders into the mirror by the real puller, as the daemon has them before acknowledging. */
async function mirrorOrders(store: Store, client: PlatformClient): Promise<void> {
  const target = pullTargets(client.contract).find(
    (t) => t.resource === 'singleOrder' && t.filter === 'created',
  );
  if (target === undefined) throw new Error('variant B lists no created single orders');
  const settings = { overlapSeconds: 120, createdLookbackDays: 30, batchSize: 500 };
  const summary = await pullTarget(
    {
      store: sqlitePullStore(store, () => undefined),
      source: client,
      clock: systemClock,
      settings,
    },
    target,
  );
  if (!summary.ok) throw new Error(`push: the pull failed: ${summary.error ?? ''}`);
  // The pull also queues each order's hand-over to the ERP; this benchmark measures only the
  // acknowledgements, so those jobs go (they would otherwise run, undelivered, in the drain).
  store.db.prepare("DELETE FROM queue WHERE kind LIKE 'deliver.%'").run();
}

/**
 * Queues the acknowledgements as the daemon does: inside the transaction that records the
 * deliveries' outcomes (src/deliver/deliver.ts), which marks each version delivered, queues its
 * acknowledgement and notes it queued. That transaction is the delivery's own commit, shared by
 * the deliveries ending together (at most GROUP_MAX_OUTCOMES), so queuing an acknowledgement
 * costs the daemon its rows, not a commit of its own.
 */
function queueAcknowledgements(store: Store, contract: Contract, ids: readonly string[]): void {
  for (let start = 0; start < ids.length; start += GROUP_MAX_OUTCOMES) {
    transaction(store, () => {
      for (const id of ids.slice(start, start + GROUP_MAX_OUTCOMES)) {
        const entry = getMirror(store, 'singleOrder', id);
        if (entry === undefined) throw new Error(`push: single order ${id} was not pulled`);
        const { version, record } = entry;
        markDelivered(store, 'singleOrder', id, version);
        const ack = acknowledgementOf(contract, { resource: 'singleOrder', id, version, record });
        if (ack === undefined) throw new Error(`push: single order ${id} needs no acknowledgement`);
        enqueue(store, ack);
        setAckState(store, 'singleOrder', id, version, 'queued');
      }
    });
  }
}

/** The same PATCHes as acknowledgement jobs through the durable queue: enqueue, then drain. */
async function queuedPatches(sim: SimulatorProcess, ids: readonly string[], round: number) {
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
      const started = performance.now();
      queueAcknowledgements(store, client.contract, ids);
      const enqueueMs = performance.now() - started;
      // BENCH_PUSH_PROFILE=<folder>: a CPU profile of each round's drain.
      const drain = await profiled(process.env['BENCH_PUSH_PROFILE'], `push-drain-${round}`, () =>
        timed(() => worker.runUntilEmpty()),
      );
      const { ran, waiting } = drain.result;
      const done = countJobs(store, 'done');
      if (ran !== ids.length || waiting !== 0 || done !== ids.length) {
        throw new Error(`push: ran ${ran}, done ${done}, waiting ${waiting} of ${ids.length} jobs`);
      }
      return { enqueueMs, drainMs: drain.ms, drainCpuMs: drain.cpuMs };
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
      // Not counted: a round of each first. The first PATCHes of a process pay for compiling
      // and connecting, the simulator's as much as ours (the daemon runs for long). After only
      // 200, the simulator still answered the first round's raw loop at 6,100-7,100/s against
      // 10,900-11,900/s in the second (the queue's drain the same in both), so the first
      // round's ratio read 0.7-0.9× for a queue no faster.
      await rawPatches(sim, await createdOrders(sim));
      await floorPatches(sim, await createdOrders(sim));
      await queuedPatches(sim, await createdOrders(sim), 0);
      for (let round = 1; round <= ROUNDS; round++) {
        const raw = await rawPatches(sim, await createdOrders(sim));
        const rawMs = raw.ms;
        const floor = await floorPatches(sim, await createdOrders(sim));
        const { enqueueMs, drainMs, drainCpuMs } = await queuedPatches(
          sim,
          await createdOrders(sim),
          round,
        );
        const rawRate = (ORDERS * 1000) / rawMs;
        const drained = ratio((ORDERS * 1000) / drainMs, rawRate);
        const whole = ratio((ORDERS * 1000) / (enqueueMs + drainMs), rawRate);
        const floored = ratio((ORDERS * 1000) / floor.ms, rawRate);
        print(
          `round ${round}: raw ${seconds(rawMs)}, ${rate(ORDERS, rawMs)}, ${cpuPerThousand(raw.cpuMs)}; ` +
            `durable floor (a job row claimed and marked done, nothing else) ${seconds(floor.ms)}, ` +
            `${rate(ORDERS, floor.ms)}, ${cpuPerThousand(floor.cpuMs)}, ${floored}; ` +
            `queue: enqueue ${seconds(enqueueMs)} (in the deliveries' commits, as the daemon queues them), ` +
            `drain ${seconds(drainMs)}, ${rate(ORDERS, drainMs)}, ${cpuPerThousand(drainCpuMs)}; ` +
            `ratio drain ${drained}, enqueue + drain ${whole}`,
        );
        ratios.push(`${drained} (${whole} with enqueue; durable floor ${floored})`);
      }
    } finally {
      await sim.stop();
    }
    return `queue against raw PATCH loop: ${ratios.join(', ')}`;
  },
};
