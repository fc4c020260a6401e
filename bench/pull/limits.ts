import { join } from 'node:path';
import { request } from 'undici';
import type { Variant } from '../../src/contract/index.js';
import { createPlatformClient, type PlatformRecord } from '../../src/platform/index.js';
import { systemClock } from '../../src/shared/clock.js';
import { openStore, transaction } from '../../src/store/index.js';
import { readMemory } from '../support/memory.js';
import { withTempFolder } from '../support/tempFolder.js';

/** One reading of a way to read the list: how many records, how long, the highest rss. */
export interface ReadFigures {
  count: number;
  ms: number;
  /** CPU time of this process (user + system, every thread) while it read. */
  cpuMs: number;
  bytes: number;
  peakRss: number;
}

/** CPU milliseconds (user + system) of this process since `from` (a process.cpuUsage()). */
function cpuSince(from: NodeJS.CpuUsage): number {
  const { user, system } = process.cpuUsage(from);
  return (user + system) / 1000;
}

/** V8 cannot hold a string much longer than this: the raw limit is not measured past it. */
export const RAW_LIMIT_BYTES = 500 * 1024 * 1024;

/**
 * The raw limit: the same list read with undici and `JSON.parse` whole, nothing checked, nothing
 * stored. No daemon can read a list faster with the same HTTP client and parser.
 */
export async function rawRead(url: string): Promise<ReadFigures> {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const { statusCode, body } = await request(`${url}/singleOrder`, {
    headers: { 'service-api-key': 'bench-key' },
  });
  if (statusCode !== 200) throw new Error(`raw read: the order server answered ${statusCode}`);
  const text = await body.text();
  const list = JSON.parse(text) as unknown[];
  const ms = performance.now() - started;
  const cpuMs = cpuSince(cpu);
  const bytes = Buffer.byteLength(text);
  return { count: list.length, ms, cpuMs, bytes, peakRss: readMemory().rss };
}

/** Reads the list through the platform client, streamed, handing each record to `take`. */
async function streamList(
  url: string,
  variant: Variant,
  take: (record: PlatformRecord) => void,
): Promise<ReadFigures> {
  const client = createPlatformClient({
    baseUrl: url,
    apiKey: 'bench-key',
    variant,
    timeoutMs: 60_000,
    concurrency: 1,
    clock: systemClock,
  });
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    let count = 0;
    let peakRss = 0;
    for await (const record of client.listSingleOrders({
      status: 'created',
      updatedAfter: new Date(0),
    })) {
      if (typeof record['_id'] === 'string') count += 1;
      take(record);
      if (count % 10_000 === 0) peakRss = Math.max(peakRss, readMemory().rss);
    }
    return { count, ms: performance.now() - started, cpuMs: cpuSince(cpu), bytes: 0, peakRss };
  } finally {
    await client.close();
  }
}

/** The platform client's streamed list (undici, the array cut and parsed as it comes), nothing stored. */
export function clientRead(url: string, variant: Variant): Promise<ReadFigures> {
  return streamList(url, variant, () => undefined);
}

/** Records to a commit in the floor, as a pull commits them by default (`sync.batchSize`). */
const FLOOR_BATCH = 500;

/**
 * The floor of any pull that keeps what it reads: the client's streamed list, each record one row
 * (key, version, text) of a table of its own in a database opened as the daemon opens its own
 * (WAL, synchronous=FULL, the same checkpoints), FLOOR_BATCH to a commit. No ledger, no
 * delivery job, no check: a pull that also does those cannot be faster than this.
 */
export async function floorRead(url: string, variant: Variant): Promise<ReadFigures> {
  return withTempFolder(async (folder) => {
    const store = openStore({ path: join(folder, 'floor.db'), clock: systemClock });
    try {
      store.db.exec(`CREATE TABLE floor (_id TEXT PRIMARY KEY, version TEXT NOT NULL,
        json TEXT NOT NULL) STRICT`);
      const insert = store.db.prepare<[string, string, string]>(
        `INSERT INTO floor VALUES (?, ?, ?)
         ON CONFLICT DO UPDATE SET version = excluded.version, json = excluded.json`,
      );
      let batch: PlatformRecord[] = [];
      const commit = () => {
        transaction(store, () => {
          for (const record of batch) {
            insert.run(String(record['_id']), String(record['updatedAt']), JSON.stringify(record));
          }
        });
        batch = [];
      };
      const figures = await streamList(url, variant, (record) => {
        batch.push(record);
        if (batch.length === FLOOR_BATCH) commit();
      });
      const lastCommit = performance.now();
      const cpu = process.cpuUsage();
      commit();
      const ms = figures.ms + performance.now() - lastCommit;
      return { ...figures, ms, cpuMs: figures.cpuMs + cpuSince(cpu) };
    } finally {
      store.close();
    }
  });
}
