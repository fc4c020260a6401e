import { createLogger } from '../../../src/log/index.js';
import { createPlatformClient } from '../../../src/platform/index.js';
import type { HandlerContext, HandlerRegistry, QueueWorker } from '../../../src/queue/index.js';
import { createQueueWorker, type QueueWorkerOptions } from '../../../src/queue/index.js';
import type { Store } from '../../../src/store/index.js';
import { tempStores, type TempStores } from '../store/tempStore.js';
import { withinBound } from '../eventually.js';

export interface LogLine {
  level: string;
  msg: string;
  [key: string]: unknown;
}

export const RETRY = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 5_000 };

/**
 * A database in a temp folder, a fake clock, a logger whose lines the test reads, and workers
 * over them. The platform client in the context is real but points nowhere: the handlers the
 * tests write never call it.
 */
export function queueHarness() {
  const stores: TempStores = tempStores();
  const store = stores.open();
  const logs: LogLine[] = [];
  const logger = createLogger({
    level: 'debug',
    destination: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) },
  });
  const client = createPlatformClient({
    baseUrl: 'http://127.0.0.1:9/api',
    apiKey: 'test-key',
    variant: 'B',
    timeoutMs: 1_000,
    concurrency: 1,
    clock: stores.clock,
  });
  const contextOf = (on: Store): HandlerContext => ({
    client,
    store: on,
    contract: client.contract,
    clock: stores.clock,
    logger,
  });
  const workers: QueueWorker[] = [];
  return {
    store,
    clock: stores.clock,
    folder: stores.folder,
    logs,
    openStore: () => stores.open(),
    worker(
      handlers: HandlerRegistry,
      overrides: Partial<Omit<QueueWorkerOptions, 'handlers'>> = {},
    ): QueueWorker {
      const on = overrides.store ?? store;
      const worker = createQueueWorker({
        store: on,
        handlers,
        context: contextOf(on),
        clock: stores.clock,
        logger,
        concurrency: 4,
        retry: RETRY,
        random: () => 0.5,
        ...overrides,
      });
      workers.push(worker);
      return worker;
    },
    async cleanup(): Promise<void> {
      for (const worker of workers) await worker.stop();
      await client.close();
      stores.cleanup();
    },
  };
}

export type QueueHarness = ReturnType<typeof queueHarness>;

/** The state of every job, by id. */
export function states(store: Store): Record<number, string> {
  const rows = store.db.prepare('SELECT id, state FROM queue ORDER BY id').all() as {
    id: number;
    state: string;
  }[];
  return Object.fromEntries(rows.map((row) => [row.id, row.state]));
}

/** A promise with its resolve function, for handlers the test releases. */
export function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Rejects after `ms`, so a test that would hang fails with a message instead. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return withinBound(promise, what, ms);
}

/** Counts the transactions that commit on their own (savepoints inside one are not counted). */
export function countCommits(store: Store): { readonly count: number } {
  const { db } = store;
  const counter = { count: 0 };
  const original = db.transaction.bind(db);
  // src/store/transaction.ts starts every transaction with `.immediate()`.
  db.transaction = ((work: (...args: unknown[]) => unknown) => {
    const wrapped = original(work);
    return {
      immediate: (...args: unknown[]) => {
        if (!db.inTransaction) counter.count += 1;
        return wrapped.immediate(...args);
      },
    };
  }) as unknown as typeof db.transaction;
  return counter;
}
