import { join } from 'node:path';
import { createLogger } from '../../src/log/index.js';
import { createPlatformClient, type PlatformClient } from '../../src/platform/index.js';
import type { Contract } from '../../src/contract/index.js';
import { createQueueWorker, enqueue } from '../../src/queue/index.js';
import { GROUP_MAX_OUTCOMES } from '../../src/queue/outcomeGroup.js';
import { createHandlers } from '../../src/pushback/index.js';
import { systemClock } from '../../src/shared/clock.js';
import {
  countJobs,
  getMirror,
  markDelivered,
  openStore,
  setAckState,
  transaction,
  type Store,
} from '../../src/store/index.js';
import { acknowledgementOf } from '../../src/deliver/acknowledge.js';
import { pullTarget } from '../../src/pull/puller.js';
import { sqlitePullStore } from '../../src/pull/pullStore.js';
import { pullTargets } from '../../src/pull/targets.js';
import { profiled } from '../support/profile.js';
import type { SimulatorProcess } from '../support/simulatorProcess.js';
import { withTempFolder } from '../support/tempFolder.js';
import { API_KEY, CONCURRENCY, timed } from './limits.js';

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
export async function queuedPatches(sim: SimulatorProcess, ids: readonly string[], round: number) {
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
