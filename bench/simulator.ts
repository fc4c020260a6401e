import { createPlatformClient, type PlatformClient } from '../src/platform/index.js';
import { systemClock } from '../src/shared/clock.js';
import { startSimulator, type RunningSimulator } from '../src/simulator/index.js';
import type { Benchmark } from './support/benchmark.js';
import { count, mib, millis, percentile, rate, seconds } from './support/format.js';
import { liveHeap, readMemory, sampleMemory, type MemorySampler } from './support/memory.js';

const SIZES = { articles: 100_000, patients: 50_000 };
const LOOKUPS = 200;

interface Listing {
  articles: number;
  customerNumbers: string[];
}

/** Lists every created article, keeping an evenly spread sample of customer numbers. */
async function listArticles(client: PlatformClient, sampler: MemorySampler): Promise<Listing> {
  const every = Math.max(1, Math.floor(SIZES.articles / LOOKUPS));
  const customerNumbers: string[] = [];
  let articles = 0;
  for await (const article of client.listArticles({
    updatedAfter: new Date(0),
    status: 'created',
  })) {
    sampler.poll();
    if (articles % every === 0 && typeof article['customerNumber'] === 'string') {
      customerNumbers.push(article['customerNumber']);
    }
    articles += 1;
  }
  return { articles, customerNumbers };
}

/** The time of each look-up of an article by its customer number, in order. */
async function lookUp(client: PlatformClient, customerNumbers: readonly string[]) {
  if (customerNumbers.length === 0) throw new Error('the article list had no customer numbers');
  const times: number[] = [];
  for (let i = 0; i < LOOKUPS; i++) {
    const customerNumber = customerNumbers[i % customerNumbers.length] ?? '';
    const started = performance.now();
    const article = await client.getArticle(customerNumber);
    times.push(performance.now() - started);
    if (article['customerNumber'] !== customerNumber) {
      throw new Error(`GET article ${customerNumber} answered article ${String(article['_id'])}`);
    }
  }
  return times;
}

async function measure(simulator: RunningSimulator, print: (line: string) => void) {
  const client = createPlatformClient({
    baseUrl: simulator.url,
    apiKey: 'demo-key',
    variant: 'B',
    timeoutMs: 60_000,
    concurrency: 4,
    clock: systemClock,
  });
  try {
    const before = { ...readMemory(), live: liveHeap() };
    print(
      `after start: heapUsed ${mib(before.heapUsed)} (live ${mib(before.live)}), rss ${mib(before.rss)}`,
    );
    const sampler = sampleMemory(50);
    const started = performance.now();
    const listing = await listArticles(client, sampler);
    const ms = performance.now() - started;
    const peaks = sampler.stop();
    print(
      `list of ${count(listing.articles)} articles (B, status created): ${seconds(ms)}, ` +
        `${rate(listing.articles, ms)}; peak heapUsed ${mib(peaks.peakHeapUsed)}, rss ${mib(peaks.peakRss)} (${count(peaks.samples)} samples)`,
    );
    const times = await lookUp(client, listing.customerNumbers);
    const [p50, p95] = [percentile(times, 0.5), percentile(times, 0.95)];
    print(`${LOOKUPS} GET article by customerNumber: p50 ${millis(p50)}, p95 ${millis(p95)}`);
    return { listing, ms, peaks, p50, p95 };
  } finally {
    await client.close();
  }
}

export const simulatorBenchmark: Benchmark = {
  name: 'simulator',
  description: `a simulator with ${count(SIZES.articles)} articles and ${count(SIZES.patients)} patients, read through the client`,
  async run(print) {
    const started = performance.now();
    const simulator = await startSimulator({
      variant: 'B',
      sizes: SIZES,
      port: 0,
      host: '127.0.0.1',
    });
    const startMs = performance.now() - started;
    print(`start-up (seed and listen): ${seconds(startMs)}`);
    try {
      const { listing, ms, peaks, p50, p95 } = await measure(simulator, print);
      return (
        `start ${seconds(startMs)}; ${count(listing.articles)} articles listed in ${seconds(ms)} ` +
        `(peak heapUsed ${mib(peaks.peakHeapUsed)}); look-up p50 ${millis(p50)}, p95 ${millis(p95)}`
      );
    } finally {
      await simulator.close();
    }
  },
};
