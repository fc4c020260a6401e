import { request } from 'undici';
import type { Variant } from '../../src/contract/index.js';
import { createPlatformClient } from '../../src/platform/index.js';
import { systemClock } from '../../src/shared/clock.js';
import { readMemory } from '../support/memory.js';

/** One reading of a way to read the list: how many records, how long, the highest rss. */
export interface ReadFigures {
  count: number;
  ms: number;
  bytes: number;
  peakRss: number;
}

/** V8 cannot hold a string much longer than this: the raw limit is not measured past it. */
export const RAW_LIMIT_BYTES = 500 * 1024 * 1024;

/**
 * The raw limit: the same list read with undici and `JSON.parse` whole, nothing checked, nothing
 * stored. No daemon can read a list faster with the same HTTP client and parser.
 */
export async function rawRead(url: string): Promise<ReadFigures> {
  const started = performance.now();
  const { statusCode, body } = await request(`${url}/singleOrder`, {
    headers: { 'service-api-key': 'bench-key' },
  });
  if (statusCode !== 200) throw new Error(`raw read: the order server answered ${statusCode}`);
  const text = await body.text();
  const list = JSON.parse(text) as unknown[];
  const ms = performance.now() - started;
  return { count: list.length, ms, bytes: Buffer.byteLength(text), peakRss: readMemory().rss };
}

/** The platform client's streamed list (undici, the array cut and parsed as it comes), nothing stored. */
export async function clientRead(url: string, variant: Variant): Promise<ReadFigures> {
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
    let count = 0;
    let peakRss = 0;
    for await (const record of client.listSingleOrders({
      status: 'created',
      updatedAfter: new Date(0),
    })) {
      if (typeof record['_id'] === 'string') count += 1;
      if (count % 10_000 === 0) peakRss = Math.max(peakRss, readMemory().rss);
    }
    return { count, ms: performance.now() - started, bytes: 0, peakRss };
  } finally {
    await client.close();
  }
}
