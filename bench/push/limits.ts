/**
 * The push benchmark's references: the raw undici PATCH loop and the durable floor, with the
 * orders they acknowledge.
 */
import { join } from 'node:path';
import { Pool } from 'undici';
import { PASS_CLAIM_LIMIT } from '../../src/queue/claim.js';
import { GROUP_MAX_OUTCOMES } from '../../src/queue/outcomeGroup.js';
import { systemClock } from '../../src/shared/clock.js';
import { openStore, transaction } from '../../src/store/index.js';
import type { SimulatorProcess } from '../support/simulatorProcess.js';
import { withTempFolder } from '../support/tempFolder.js';

export const ORDERS = 2_000;
/** The daemon's default platform.concurrency and queue.concurrency. */
export const CONCURRENCY = 4;
export const API_KEY = 'demo-key';

/** A fresh simulator seed with `ORDERS` more created single orders; their ids. */
export async function createdOrders(sim: SimulatorProcess): Promise<string[]> {
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
export async function timed<T>(
  work: () => Promise<T>,
): Promise<{ result: T; ms: number; cpuMs: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  return { result, ms, cpuMs: (user + system) / 1000 };
}

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
export function rawPatches(sim: SimulatorProcess, ids: readonly string[]) {
  return withPool(sim, (pool) => timed(() => patchAll(pool, ids)));
}

/**
 * The floor of any durable queue: the raw loop's PATCHes, with only a job row per PATCH in a
 * database opened as the daemon opens its own: claimed PASS_CLAIM_LIMIT at a time in one
 * commit, marked done GROUP_MAX_OUTCOMES to a commit. No mirror, no fingerprint, no status read:
 * a queue that also keeps those cannot drain faster than this.
 */
export async function floorPatches(sim: SimulatorProcess, ids: readonly string[]) {
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
