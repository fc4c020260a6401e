import { stateLog, type Logger } from '../log/index.js';
import type { PlatformFailures } from '../platform/index.js';
import type { Clock } from '../shared/clock.js';
import type { KindFilter, Store } from '../store/index.js';
import {
  bringForward,
  countJobs,
  getStoredJob,
  inKinds,
  releaseRunning,
  type StoredJob,
} from '../store/index.js';
import { createChannel, type Channel } from './channel.js';
import type { WeightOf } from './fairShare.js';
import type { JobObserver } from './jobReport.js';
import type { RetrySettings } from './outcome.js';
import { outcomeGroup } from './outcomeGroup.js';
import type { JobRunner } from './runJob.js';
import {
  HAND_OVERS,
  PLATFORM_WRITES,
  type HandlerContext,
  type HandlerRegistry,
  type WriteUnderWay,
} from './types.js';
import { WritesUnderWay } from './underWay.js';

export interface QueueWorkerOptions {
  store: Store;
  handlers: HandlerRegistry;
  context: HandlerContext;
  clock: Clock;
  logger: Logger;
  /** Jobs run at once in each channel, each of a different entity (`queue.concurrency`). */
  concurrency: number;
  retry: RetrySettings;
  /** In [0, 1); the back-off's jitter. */
  random?: () => number;
  /** Counts jobs by kind and outcome (the daemon's metrics). */
  observer?: JobObserver;
  /** How long a claimed job counts as taken (`lease_until`); shown to operators. */
  leaseMs?: number;
  /** The platform outages' states, which the jobs' failures of their kinds join. */
  failures?: PlatformFailures;
  /**
   * How much of a pass each kind may take while several have ready jobs (`queue.weights`):
   * a backlog of one kind never holds another's jobs for more than a pass.
   */
  weightOf?: WeightOf;
  /**
   * Told of the jobs recover() put back, whose process stopped while they ran: a write of theirs
   * may have reached the platform (the push-back stage notes their changes as tried).
   */
  interrupted?: (jobs: readonly StoredJob[]) => void;
}

export interface QueueWorker {
  /** Puts jobs a dead process left `running` back to pending; call at start. Returns their ids. */
  recover(): number[];
  /**
   * A pass of each channel, side by side: runs every job ready now (one per entity),
   * `concurrency` at once per channel, the jobs of a batch kind in batches; returns how many ran.
   */
  runOnce(): Promise<number>;
  /**
   * Passes until nothing is ready now; `waiting` counts the jobs still pending (back-off). With
   * `skipBackoff` (`sync --once`: the operator asks for the work now), jobs waiting for their
   * back-off are due first, so each gets one try now; a `Retry-After` is still honoured.
   */
  runUntilEmpty(options?: { skipBackoff?: boolean }): Promise<{ ran: number; waiting: number }>;
  /**
   * Each channel passes at once, then every `intervalMs`, at once again after a pass that ran
   * something, and as soon as a job of its kinds is queued in this process (a pull's
   * deliveries, an acknowledgement, an inbox message).
   */
  start(intervalMs: number): void;
  /** Stops claiming, waits for the jobs running; none is left `running`. */
  stop(): Promise<void>;
  /**
   * Commits the outcomes gathered so far now; call it outside a transaction. A pull calls it
   * before it compares what it fetched with our own writes: a write the platform has answered
   * must count as ours (its fingerprint committed) by then, or its echo would go to the ERP as
   * someone else's change.
   */
  commitOutcomes(): void;
  /** The writes of this process's running jobs to these records whose outcome is not committed. */
  writesUnderWay(resource: string, ids: readonly string[]): WriteUnderWay[];
}

const DEFAULT_LEASE_MS = 10 * 60_000;

/**
 * The worker's channels: hand-overs to the ERP, and everything else (writes to the platform:
 * acknowledgements, the inbox's kinds). Each passes over its own kinds with its own lanes, so a
 * backlog of one never holds the other back; order per entity holds across them (readyJobs).
 * An operator's push pause holds back the platform writes only.
 */
const CHANNELS: readonly { name: string; kinds: KindFilter; pausable: boolean }[] = [
  { name: 'deliveries', kinds: HAND_OVERS, pausable: false },
  { name: 'platform writes', kinds: PLATFORM_WRITES, pausable: true },
];

export function createQueueWorker(options: QueueWorkerOptions): QueueWorker {
  const { store, logger } = options;
  const runner: JobRunner = {
    ...options,
    random: options.random ?? Math.random,
    underWay: new WritesUnderWay(),
    waits: stateLog({
      logger,
      now: () => options.clock.now().getTime(),
      causeField: 'code',
      countField: 'waiting',
      lines: (code) => ({
        down: ({ problem, count }, again) =>
          again
            ? `queue: still waiting (${code}): ${count} job(s); the latest, ${problem}`
            : `queue: ${problem}`,
        back: (since) => `queue: no job waits for ${code} any more (waited since ${since})`,
      }),
    }),
  };
  const inFlight = new Set<number>();
  const outcomes = outcomeGroup(runner);
  let stopping = false;
  let unsubscribe: (() => void) | undefined;
  const channels: Channel[] = CHANNELS.map(({ name, kinds, pausable }) =>
    createChannel({
      name,
      kinds,
      pausable,
      runner,
      concurrency: options.concurrency,
      leaseMs: options.leaseMs ?? DEFAULT_LEASE_MS,
      outcomes,
      inFlight,
      stopping: () => stopping,
      ...(options.weightOf === undefined ? {} : { weightOf: options.weightOf }),
    }),
  );

  /** A pass of every channel at once; how many jobs they ran. */
  async function runOnce(): Promise<number> {
    const ran = await Promise.all(channels.map((channel) => channel.runOnce()));
    return ran.reduce((sum, count) => sum + count, 0);
  }

  async function runUntilEmpty({ skipBackoff = false } = {}): Promise<{
    ran: number;
    waiting: number;
  }> {
    const brought = skipBackoff ? bringForward(store) : 0;
    if (brought > 0) {
      logger.info(
        { jobs: brought },
        `queue: ${brought} job(s) waiting for their next try are tried now, without waiting out the back-off`,
      );
    }
    let ran = 0;
    for (let last = await runOnce(); last > 0 && !stopping; last = await runOnce()) ran += last;
    return { ran, waiting: countJobs(store, 'pending') };
  }

  return {
    recover() {
      const released = releaseRunning(store, inFlight);
      if (released.length > 0) {
        logger.warn(
          { jobIds: released },
          `queue: ${released.length} job(s) left running by a stopped process are pending again: ${released.join(', ')}`,
        );
        const jobs = released.map((id) => getStoredJob(store, id));
        options.interrupted?.(jobs.filter((job): job is StoredJob => job !== undefined));
      }
      return released;
    },
    runOnce,
    runUntilEmpty,
    start(intervalMs) {
      if (unsubscribe !== undefined) {
        throw new Error('queue worker: start() called twice without stop()');
      }
      stopping = false;
      unsubscribe = store.jobsQueued.listen((kind) => {
        for (const channel of channels) if (inKinds(channel.kinds, kind)) channel.wake();
      });
      for (const channel of channels) channel.start(intervalMs);
    },
    async stop() {
      stopping = true;
      unsubscribe?.();
      unsubscribe = undefined;
      await Promise.all(channels.map((channel) => channel.stop()));
      stopping = false;
    },
    commitOutcomes: () => outcomes.commitNow(),
    writesUnderWay: (resource, ids) => runner.underWay.about(resource, ids),
  };
}
