/**
 * Composition root: builds every stage and mechanism once from the config and hands each what it
 * needs (the daemon in daemon.ts, `sync --once` in syncOnce.ts).
 */
import { contractFor, type Contract } from '../contract/index.js';
import {
  effectiveResourceSettings,
  secretValues,
  type Config,
  type ResourceSettings,
} from '../config/index.js';
import type { ErpAdapter } from '../erp/adapter.js';
import { createInbox, type CountInbound, type Inbox } from '../erp/inbound/index.js';
import { droppedFieldsLog, inboxKinds, type InboundRules } from '../erp/messages/index.js';
import type { Metrics } from '../http/metrics.js';
import { createLogger, type Logger } from '../log/index.js';
import {
  createPlatformClient,
  outageLog,
  platformFailures,
  type PlatformClient,
} from '../platform/index.js';
import { createQueueWorker, type Handler, type QueueWorker } from '../queue/index.js';
import {
  createHandlers,
  noteInterruptedWrites,
  noteWritesUnderWay,
  PUSH_BACK_KINDS,
} from '../pushback/index.js';
import type { Clock } from '../shared/clock.js';
import { packageVersion } from '../shared/version.js';
import {
  countJobs,
  openDeadLetterJobIds,
  openStore,
  countUndelivered,
  lastOnlineChecks,
  pausesInForce,
  type Store,
} from '../store/index.js';
import { deliveryHandlers } from '../deliver/deliver.js';
import { sqlitePullStore } from '../pull/pullStore.js';
import { pullProgress, type ProgressTerminal } from '../pull/progress.js';
import { createPullRunner, type PullRunner } from '../pull/runner.js';
import { daemonPullTargets } from '../pull/targets.js';
import { createAdapter } from '../deliver/adapter.js';
import { weightOf } from './queueWeights.js';
import { FS_STEP_MS, withinTime } from '../shared/deadline.js';
import { noteRefusal, type Refusals } from './refusals.js';
import {
  fileInboxOptions,
  httpInbound,
  inboxAcceptor,
  inboxBatchAcceptor,
  mirroredOrder,
  mirroredOrdersBySalesId,
} from '../pushback/intake.js';
import { filesFetcher, referenceFetcher } from '../deliver/references.js';
import { removeStaleDryRuns } from '../housekeeping/index.js';
import { cachedStorageFigures, inboxOf } from '../readModels/index.js';

export interface AppDeps {
  clock: Clock;
  /** Where HTTPS_PROXY and NO_PROXY are read from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Tests pass their own; otherwise JSON lines on stdout at the configured level. */
  logger?: Logger;
  /** In [0, 1): the jitter of every back-off (queue jobs, deliveries among them); Math.random unless a test fixes it. */
  random?: () => number;
  /** The file the config came from, for the start line. */
  configPath?: string;
  /** Whether stdout is a terminal: `log.format: auto` prints pretty lines then. */
  isTerminal?: boolean;
  /** A terminal to draw a long pull's progress line on (stderr, when it is one); else the log. */
  progressTerminal?: ProgressTerminal;
  /** `sync --dry-run` (dryRun.ts): stand-ins that note what would be handed over or written. */
  dryRun?: DryRunStandIns;
  /** Built beside a running daemon (a reload): nothing of its ERP side is cleaned up yet. */
  beside?: boolean;
}

/** What a dry run puts in place of the ERP adapter and of every platform write's handler. */
export interface DryRunStandIns {
  adapter: ErpAdapter;
  platformWrite: Handler;
}

/** The platform writes' handlers; in a dry run the stand-in for each of them. */
function platformWrites(dryRun: DryRunStandIns | undefined): Record<string, Handler> {
  const handlers = createHandlers();
  if (dryRun === undefined) return handlers;
  return Object.fromEntries(Object.keys(handlers).map((kind) => [kind, dryRun.platformWrite]));
}

/** Everything the daemon is made of, built once from the config (the composition root). */
export interface App {
  config: Config;
  contract: Contract;
  clock: Clock;
  logger: Logger;
  store: Store;
  client: PlatformClient;
  adapter: ErpAdapter;
  runner: PullRunner;
  worker: QueueWorker;
  inbox: Inbox | undefined;
  /** Prometheus's metrics, built exactly when `http.enabled` (nothing else can read them). */
  metrics: Metrics | undefined;
  resources: ResourceSettings[];
  /** This package's version and the config file, for the start line. */
  version: string;
  configPath: string | undefined;
  inbound: ReturnType<typeof httpInbound>;
  /** ERP messages refused so far (files set aside, requests answered 400), for the alerts. */
  refusals: Refusals;
  /**
   * The platform's reach as a state in the log (platform/outageLog.ts): told when the breaker
   * opens or closes; call it now and then for the summary while the outage lasts.
   */
  outageLog: () => void;
  close(): Promise<void>;
}

/** Without the endpoint no one can read a count: prom-client is then not even loaded. */
async function endpointMetrics(
  config: Config,
  version: string,
  store: Store,
): Promise<Metrics | undefined> {
  if (!config.http.enabled) return undefined;
  const { Metrics } = await import('../http/metrics.js');
  return new Metrics(
    { version, variant: config.platform.variant },
    {
      queueByState: () =>
        Object.fromEntries(
          (['pending', 'running', 'dead'] as const).map((s) => [s, countJobs(store, s)]),
        ),
      deadLetters: () => openDeadLetterJobIds(store).length,
      undelivered: () => countUndelivered(store),
      storage: cachedStorageFigures(store, inboxOf(config)),
      paused: () => pausesInForce(store),
      onlineChecks: () => lastOnlineChecks(store),
    },
  );
}

/** The ERP adapter, or a refusal naming the folder when preparing it does not end in time. */
function adapterWithin(config: Config, deps: AppDeps, logger: Logger): Promise<ErpAdapter> {
  const made = createAdapter(config, deps.clock, logger, deps.beside);
  return withinTime(made, FS_STEP_MS, outboxOf(config), (late) => late.close());
}

/** The ERP's side as the config names it, for a refusal. */
export function outboxOf(config: Config): string {
  return config.erp.adapter === 'file' ? `erp.file.outbox ${config.erp.file.outbox}` : 'erp.rest';
}

/**
 * Builds the daemon's parts; what a failed build opened is closed again (a refused reload
 * leaves no database handle, socket or thread behind).
 */
export async function createApp(config: Config, deps: AppDeps): Promise<App> {
  const opened: (() => Promise<void> | void)[] = [];
  try {
    return await assemble(config, deps, opened);
  } catch (error) {
    // The build's own error is the one to tell; a part that fails to close after it adds nothing.
    for (const close of opened.reverse()) await Promise.resolve(close()).catch(() => undefined);
    throw error;
  }
}

/** createApp's parts, each with its closing pushed to `opened` as it is made. */
async function assemble(
  config: Config,
  deps: AppDeps,
  opened: (() => Promise<void> | void)[],
): Promise<App> {
  const { clock } = deps;
  const random = deps.random ?? Math.random;
  const logger = (
    deps.logger ??
    createLogger({
      level: config.log.level,
      secrets: secretValues(config),
      format: config.log.format,
      isTerminal: deps.isTerminal ?? false,
    })
  ).child(deps.dryRun === undefined ? {} : { dryRun: true });
  const version = packageVersion();
  const contract = contractFor(config.platform.variant, config.platform.paths, {
    integratedCareAck: config.ack.integratedCare,
  });
  // A copy a killed dry run left holds every patient's data: gone before the daemon starts.
  const removedCopies = removeStaleDryRuns(config.storage.path);
  if (removedCopies.length > 0) {
    logger.info({ removed: removedCopies }, 'removed the database copies killed dry runs left');
  }
  const store = openStore({ path: config.storage.path, clock });
  opened.push(() => store.close());
  let tellOutage = (): void => undefined;
  const client = createPlatformClient({
    baseUrl: config.platform.baseUrl,
    apiKey: config.platform.apiKey,
    variant: config.platform.variant,
    paths: config.platform.paths,
    timeoutMs: config.platform.timeoutMs,
    concurrency: config.platform.concurrency,
    retry: config.platform.readRetry,
    ...(config.platform.caFile === undefined ? {} : { caFile: config.platform.caFile }),
    clock,
    env: deps.env,
    outageChanged: () => tellOutage(),
  });
  opened.push(() => client.close());
  tellOutage = outageLog(logger, clock, () => client.outage());
  // One state per kind of platform outage, for the lists and the jobs that meet it alike.
  const failures = platformFailures(logger, () => clock.now().getTime());
  const adapter = deps.dryRun?.adapter ?? (await adapterWithin(config, deps, logger));
  opened.push(() => adapter.close());
  const metrics = await endpointMetrics(config, version, store);
  const resources = effectiveResourceSettings(config, contract);
  const delivery = deliveryHandlers({
    store,
    adapter,
    contract,
    logger,
    fetchReferences: referenceFetcher(client, store),
    filesOf: filesFetcher(client),
    batchSize: config.sync.batchSize,
  });
  const worker = createQueueWorker({
    store,
    handlers: { ...platformWrites(deps.dryRun), ...delivery },
    context: { client, store, contract, clock, logger },
    clock,
    logger,
    concurrency: config.queue.concurrency,
    retry: config.retry,
    random,
    failures,
    weightOf: weightOf(config.queue.weights),
    ...(metrics === undefined ? {} : { observer: metrics }),
    interrupted: (jobs) => {
      void noteInterruptedWrites({ store, contract, clock }, jobs, logger);
    },
  });
  const runner = createPullRunner(
    {
      store: sqlitePullStore(
        store,
        () => worker.commitOutcomes(),
        (resource, ids) => noteWritesUnderWay(store, worker.writesUnderWay(resource, ids)),
      ),
      source: client,
      clock,
      settings: { ...config.sync, batchSize: config.sync.batchSize },
      progress: pullProgress({ clock, logger, terminal: deps.progressTerminal }),
      failures,
    },
    daemonPullTargets(config, contract),
    logger,
    (summary) => metrics?.observePull(summary, clock.now()),
  );
  const kinds = inboxKinds(PUSH_BACK_KINDS);
  const accept = inboxAcceptor(store, logger);
  const acceptFiles = inboxBatchAcceptor(store, logger);
  const refusals: Refusals = { count: 0, files: [] };
  const countInbound: CountInbound = (labels, messages, file) => {
    metrics?.inbound(labels, messages);
    if (labels.result === 'rejected') noteRefusal(refusals, messages, clock.now().getTime(), file);
  };
  // One log of dropped fields for the file inbox and the endpoint: each is named once.
  const dropped = droppedFieldsLog(logger);
  const inbound: InboundRules = { unknownFields: config.inbound.unknownFields, dropped };
  const inbox =
    config.erp.adapter === 'file'
      ? createInbox(fileInboxOptions(config), {
          clock,
          kinds,
          accept: (messages) => Promise.resolve(acceptFiles(messages)),
          logger,
          count: countInbound,
          dropped,
          openTransOrder: mirroredOrder(store),
          ordersBySalesId: mirroredOrdersBySalesId(store),
        })
      : undefined;
  return {
    config,
    contract,
    clock,
    logger,
    store,
    client,
    adapter,
    runner,
    worker,
    inbox,
    metrics,
    resources,
    version,
    configPath: deps.configPath,
    inbound: httpInbound(kinds, accept, countInbound, inbound),
    refusals,
    outageLog: () => tellOutage(),
    async close() {
      await adapter.close();
      await client.close();
      store.close();
    },
  };
}
