import { join } from 'node:path';
import { createLogger } from '../src/log/index.js';
import { createPlatformClient } from '../src/platform/index.js';
import { createQueueWorker, enqueue, type Handler, type NewJob } from '../src/queue/index.js';
import { systemClock } from '../src/shared/clock.js';
import { countJobs, openStore, transaction, type Store } from '../src/store/index.js';
import type { Benchmark } from './support/benchmark.js';
import { count, rate, seconds } from './support/format.js';
import { withTempFolder } from './support/tempFolder.js';

const JOBS = 20_000;
const ENTITIES = 2_000;
const CONCURRENCY = 4;
/** Jobs all ready at once, each of its own entity: the hand-overs a large first pull queues. */
const BACKLOG = 100_000;
/** The pull's default batch: its hand-overs are queued in the batch's commit. */
const PULL_BATCH = 500;

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

/** Ten jobs per entity, one transaction each: FIFO per entity held through the drain. */
async function fifoDrain(folder: string, print: (line: string) => void): Promise<string> {
  const store = openStore({ path: join(folder, 'fifo.db'), clock: systemClock });
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
}

/**
 * A backlog ready all at once, as after a large first pull: every pass of the worker reads
 * only the oldest ready jobs, so the drain's rate does not fall with the backlog's size.
 */
async function backlogDrain(folder: string, print: (line: string) => void): Promise<string> {
  const store = openStore({ path: join(folder, 'backlog.db'), clock: systemClock });
  try {
    let started = performance.now();
    for (let first = 0; first < BACKLOG; first += PULL_BATCH) {
      transaction(store, () => {
        for (let index = first; index < first + PULL_BATCH; index++) {
          enqueue(store, { kind: 'orderStatus', entityKey: `singleOrder:${index}`, payload: {} });
        }
      });
    }
    const enqueueMs = performance.now() - started;
    const watch = fifoWatch();
    started = performance.now();
    const { ran } = await drain(store, watch.handler);
    const drainMs = performance.now() - started;
    if (ran !== BACKLOG || countJobs(store, 'done') !== BACKLOG) {
      throw new Error(`queue: ran ${ran} of a backlog of ${BACKLOG} jobs`);
    }
    print(
      `backlog of ${count(BACKLOG)} ready at once, queued ${PULL_BATCH} to a commit in ${seconds(enqueueMs)}: drained in ${seconds(drainMs)}, ${rate(BACKLOG, drainMs)}`,
    );
    return `backlog of ${count(BACKLOG)}: ${rate(BACKLOG, drainMs)} drained`;
  } finally {
    store.close();
  }
}

export const queueBenchmark: Benchmark = {
  name: 'queue',
  description: `${count(JOBS)} jobs over ${count(ENTITIES)} entities, then a backlog of ${count(BACKLOG)} ready at once; trivial handlers, concurrency ${CONCURRENCY}`,
  run: (print) =>
    withTempFolder(async (folder) => {
      const fifo = await fifoDrain(folder, print);
      const backlog = await backlogDrain(folder, print);
      return `${fifo}; ${backlog}`;
    }),
};
