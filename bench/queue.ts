import { join } from 'node:path';
import { createLogger } from '../src/log/index.js';
import { createPlatformClient } from '../src/platform/index.js';
import { createQueueWorker, enqueue, type Handler, type NewJob } from '../src/queue/index.js';
import { systemClock } from '../src/shared/clock.js';
import { countJobs, openStore, type Store } from '../src/store/index.js';
import type { Benchmark } from './support/benchmark.js';
import { count, rate, seconds } from './support/format.js';
import { withTempFolder } from './support/tempFolder.js';

const JOBS = 20_000;
const ENTITIES = 2_000;
const CONCURRENCY = 4;

function jobAt(index: number): NewJob {
  const order = `order-${index % ENTITIES}`;
  return {
    kind: 'orderStatus',
    entityKey: `singleOrder:${order}`,
    payload: { id: order, step: index },
  };
}

/** A handler that does nothing but note the order in which each entity's jobs ran. */
function fifoWatch() {
  const last = new Map<string, number>();
  let outOfOrder = 0;
  const handler: Handler = (job) => {
    const before = last.get(job.entityKey) ?? -1;
    if (job.id <= before) outOfOrder += 1;
    last.set(job.entityKey, job.id);
    return Promise.resolve();
  };
  return { handler, outOfOrder: () => outOfOrder };
}

async function drain(store: Store, handler: Handler) {
  const logger = createLogger({ level: 'warn' });
  // The handlers never call the platform; the context needs a client all the same.
  const client = createPlatformClient({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'bench-key',
    variant: 'B',
    timeoutMs: 1_000,
    concurrency: 1,
    clock: systemClock,
  });
  const worker = createQueueWorker({
    store,
    handlers: { orderStatus: handler },
    context: { client, store, contract: client.contract, clock: systemClock, logger },
    clock: systemClock,
    logger,
    concurrency: CONCURRENCY,
    retry: { maxAttempts: 3, baseDelayMs: 1_000, maxDelayMs: 5_000 },
  });
  try {
    return await worker.runUntilEmpty();
  } finally {
    await worker.stop();
    await client.close();
  }
}

export const queueBenchmark: Benchmark = {
  name: 'queue',
  description: `${count(JOBS)} jobs over ${count(ENTITIES)} entities, trivial handlers, concurrency ${CONCURRENCY}`,
  run: (print) =>
    withTempFolder(async (folder) => {
      const store = openStore({ path: join(folder, 'homecare-sync.db'), clock: systemClock });
      try {
        let started = performance.now();
        for (let index = 0; index < JOBS; index++) enqueue(store, jobAt(index));
        const enqueueMs = performance.now() - started;
        print(
          `enqueue ${count(JOBS)} jobs, one transaction each: ${seconds(enqueueMs)}, ${rate(JOBS, enqueueMs)}`,
        );
        const watch = fifoWatch();
        started = performance.now();
        const { ran, waiting } = await drain(store, watch.handler);
        const drainMs = performance.now() - started;
        const done = countJobs(store, 'done');
        if (ran !== JOBS || waiting !== 0 || done !== JOBS || watch.outOfOrder() > 0) {
          throw new Error(
            `queue: ran ${ran}, done ${done}, waiting ${waiting}, out of order ${watch.outOfOrder()} of ${JOBS} jobs`,
          );
        }
        print(`drain with concurrency ${CONCURRENCY}: ${seconds(drainMs)}, ${rate(JOBS, drainMs)}`);
        return `${rate(JOBS, enqueueMs)} enqueued, ${rate(JOBS, drainMs)} drained (FIFO per entity held)`;
      } finally {
        store.close();
      }
    }),
};
