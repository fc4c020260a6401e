import { pino } from 'pino';
import type { ResourceName, Variant } from '../../../src/contract/index.js';
import { createLogger } from '../../../src/log/index.js';
import { createHandlers } from '../../../src/pushback/index.js';
import { createQueueWorker, enqueue, type QueueWorker } from '../../../src/queue/index.js';
import type { JobKind } from '../../../src/queue/types.js';
import type { FaultSpec, LoopSuppression } from '../../../src/simulator/index.js';
import { listStoredJobs } from '../../../src/store/index.js';
import { sqlitePullStore } from '../../../src/pull/pullStore.js';
import { createPullRunner } from '../../../src/pull/runner.js';
import { pullTargets } from '../../../src/pull/targets.js';
import { startHandlerRig, type HandlerRig } from './handlersRig.js';
import { RETRY, type LogLine } from '../queue/queueHarness.js';

/** The queue passes of `sync --once` against the simulator: real store, handlers and worker. */
export interface Pass {
  rig: HandlerRig;
  worker: QueueWorker;
  logs: LogLine[];
  /** Queues one job as an inbox message would; returns its id. */
  queue(kind: JobKind, payload: Record<string, unknown>): number;
  /** One `sync --once` queue pass: what waits for its back-off runs now. */
  run(): Promise<{ ran: number; waiting: number }>;
  /** Every record of `resource` the platform holds for the tenant, whoever wrote it. */
  onPlatform(resource: ResourceName): Record<string, unknown>[];
  /** One incremental pull of every list of `resource`, by the real puller into the rig's store. */
  pull(resource: ResourceName): Promise<void>;
  /** The versions of record `id` a pull queued for the ERP (its hand-overs, in any state). */
  handedOver(resource: ResourceName, id: string): unknown[];
}

const open: { rig: HandlerRig; worker: QueueWorker }[] = [];

/** Stops the workers and closes the rigs of the passes started so far (for `afterEach`). */
export async function closePasses(): Promise<void> {
  for (const { rig, worker } of open.splice(0)) {
    await worker.stop();
    await rig.close();
  }
}

function workerOver(rig: HandlerRig, logs: LogLine[]): QueueWorker {
  const logger = createLogger({
    // Debug too: what a job says only there (a read failing in a platform outage) is asserted.
    level: 'debug',
    destination: { write: (line: string) => void logs.push(JSON.parse(line) as LogLine) },
  });
  const { context, store } = rig;
  return createQueueWorker({
    store,
    handlers: createHandlers(),
    // The handlers' lines beside the worker's, as in the daemon.
    context: { ...context, logger },
    clock: context.clock,
    logger,
    concurrency: 1,
    retry: RETRY,
    random: () => 0.5,
  });
}

/** The puller of a daemon over the rig's store and client; it queues hand-overs, runs none. */
function pullerOver(rig: HandlerRig, worker: QueueWorker): Pass['pull'] {
  const { context, store } = rig;
  const settings = { overlapSeconds: 120, createdLookbackDays: 30, batchSize: 500 };
  const runner = createPullRunner(
    {
      store: sqlitePullStore(store, () => worker.commitOutcomes()),
      source: context.client,
      clock: context.clock,
      settings,
    },
    pullTargets(context.contract),
    pino({ enabled: false }),
  );
  return async (resource) => void (await runner.runResource(resource));
}

/** The handler rig (simulator, store, handlers) with a real worker and puller over its store. */
export async function startPass(
  variant: Variant,
  loopSuppression: LoopSuppression = 'next',
): Promise<Pass> {
  const rig = await startHandlerRig(variant, { loopSuppression });
  const logs: LogLine[] = [];
  const worker = workerOver(rig, logs);
  open.push({ rig, worker });
  let queued = 0;
  return {
    rig,
    worker,
    logs,
    queue: (kind, payload) =>
      enqueue(rig.store, { kind, entityKey: `${kind}:test-${(queued += 1)}`, payload }).id,
    run: () => worker.runUntilEmpty({ skipBackoff: true }),
    onPlatform: (resource) =>
      [...rig.sim.state.store.list('demo', resource, [{}], {})].map(
        (text) => JSON.parse(text) as Record<string, unknown>,
      ),
    pull: pullerOver(rig, worker),
    handedOver: (resource, id) =>
      listStoredJobs(rig.store, ['pending', 'running', 'done', 'dead'], -1, `deliver.${resource}`)
        .filter((job) => job.payload['id'] === id)
        .map((job) => job.payload['version']),
  };
}

/** Answers the next `method path` with `fault`, once. */
export const once = (pass: Pass, method: string, path: string, fault: Partial<FaultSpec>) =>
  pass.rig.sim.control.setFault({ method, path, times: 1, ...fault });

/** The code of the error the job went dead with, as the worker logged it. */
export function deadCode(pass: Pass, jobId: number): unknown {
  const line = pass.logs.find((l) => l.jobId === jobId && l.msg.includes('is dead'));
  return (line?.err as { code?: unknown } | undefined)?.code;
}
