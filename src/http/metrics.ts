import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Values read from the database when Prometheus scrapes, not kept in memory. */
export interface StoredCounts {
  queueByState(): Record<string, number>;
  deadLetters(): number;
  undelivered(): number;
  /** Where the space goes; read per scrape, so it should be cached (app/storage.ts does). */
  storage?(): Promise<StorageGauges>;
}

/** The `storage` figures /metrics shows (app/storage.ts StorageFigures has them). */
export interface StorageGauges {
  databaseBytes: number;
  walBytes: number;
  archiveBytes: number;
  /** Rows per table. */
  rows: Record<string, number>;
  /** Age of the oldest item each retention rule keeps; undefined when it keeps none. */
  oldestAgeSeconds: Record<string, number | undefined>;
}

/** What `homecare_sync_build_info` says about this process. */
export interface BuildInfo {
  version: string;
  variant: string;
}

export type InboundSource = 'file' | 'http';
export type InboundResult = 'accepted' | 'repeat' | 'rejected';

/** Pull runs of an idle daemon take well under a second; a first pass of a big tenant, minutes. */
const PULL_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];
/** Orders are acknowledged within a minute when all is well; hours or days when the ERP waits. */
const ACK_SECONDS = [10, 30, 60, 120, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600, 7 * 24 * 3600];

/**
 * The daemon's Prometheus metrics; one instance per process, passed to whoever counts. Node's
 * process metrics carry no prefix, so stock Node.js dashboards work; ours start `homecare_sync_`.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly pulledRecords = new Counter({
    name: 'homecare_sync_pulled_records_total',
    help: 'Record versions pulled from the platform, by resource and outcome (new, repeat, quarantined)',
    labelNames: ['resource', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly pullRuns = new Counter({
    name: 'homecare_sync_pull_runs_total',
    help: 'Pull runs by resource and result (ok, failed)',
    labelNames: ['resource', 'result'] as const,
    registers: [this.registry],
  });
  readonly pullDuration = new Histogram({
    name: 'homecare_sync_pull_duration_seconds',
    help: 'How long one pull run took, by resource, mode (incremental, reconcile) and result',
    labelNames: ['resource', 'mode', 'result'] as const,
    buckets: PULL_SECONDS,
    registers: [this.registry],
  });
  readonly lastSuccessfulPull = new Gauge({
    name: 'homecare_sync_last_successful_pull_timestamp_seconds',
    help: 'Unix time of the last successful pull per resource',
    labelNames: ['resource'] as const,
    registers: [this.registry],
  });
  readonly ackLatency = new Histogram({
    name: 'homecare_sync_ack_latency_seconds',
    help: 'From a record\u2019s creation on the platform (createdAt) to its acknowledgement, by resource',
    labelNames: ['resource'] as const,
    buckets: ACK_SECONDS,
    registers: [this.registry],
  });
  readonly deliveredRecords = new Counter({
    name: 'homecare_sync_delivered_records_total',
    help: 'Record versions handed to the ERP, by resource',
    labelNames: ['resource'] as const,
    registers: [this.registry],
  });
  readonly jobs = new Counter({
    name: 'homecare_sync_jobs_total',
    help: 'Tries of queue jobs by kind and outcome (done, retry, dead)',
    labelNames: ['kind', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly inboundMessages = new Counter({
    name: 'homecare_sync_inbound_messages_total',
    help: 'Messages from the ERP by kind, source (file, http) and result (accepted, repeat, rejected)',
    labelNames: ['kind', 'source', 'result'] as const,
    registers: [this.registry],
  });

  readonly refusedRequests = new Counter({
    name: 'homecare_sync_http_refused_total',
    help: 'Requests the endpoint refused, by HTTP status and matched route (unmatched, connection: beyond the connection budget)',
    labelNames: ['status', 'route'] as const,
    registers: [this.registry],
  });

  constructor(build: BuildInfo, counts?: StoredCounts) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'homecare_sync_build_info',
      help: 'Always 1; the labels say which homecare-sync runs, for which platform variant, on which Node.js',
      labelNames: ['version', 'variant', 'node'] as const,
      registers: [this.registry],
    }).set({ version: build.version, variant: build.variant, node: process.version }, 1);
    if (counts) this.registerStoredCounts(counts);
  }

  /** Counts one finished pull run. */
  observePull(
    run: {
      resource: string;
      ok: boolean;
      mode: string;
      fresh: number;
      repeats: number;
      quarantined: number;
      startedAt: string;
      finishedAt: string;
    },
    at: Date,
  ): void {
    const result = run.ok ? 'ok' : 'failed';
    this.pullRuns.inc({ resource: run.resource, result });
    const seconds = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000;
    if (Number.isFinite(seconds)) {
      this.pullDuration.observe({ resource: run.resource, mode: run.mode, result }, seconds);
    }
    this.pulledRecords.inc({ resource: run.resource, outcome: 'new' }, run.fresh);
    this.pulledRecords.inc({ resource: run.resource, outcome: 'repeat' }, run.repeats);
    this.pulledRecords.inc({ resource: run.resource, outcome: 'quarantined' }, run.quarantined);
    if (run.ok && run.mode === 'incremental') {
      this.lastSuccessfulPull.set({ resource: run.resource }, at.getTime() / 1000);
    }
  }

  jobEnded(kind: string, outcome: 'done' | 'retry' | 'dead'): void {
    this.jobs.inc({ kind, outcome });
  }

  recordsDelivered(resource: string, count: number): void {
    this.deliveredRecords.inc({ resource }, count);
  }

  acknowledged(resource: string, latencySeconds: number): void {
    this.ackLatency.observe({ resource }, Math.max(0, latencySeconds));
  }

  /** ERP messages taken or refused, from the file inbox or the endpoint. */
  inbound(
    labels: { kind: string; source: InboundSource; result: InboundResult },
    messages = 1,
  ): void {
    this.inboundMessages.inc(labels, messages);
  }

  /** A request the endpoint refused (401, 400, 404, 409, 413, 415, 503 beyond the budget). */
  refused(status: number, route: string): void {
    this.refusedRequests.inc({ status: String(status), route });
  }

  private registerStoredCounts(counts: StoredCounts): void {
    new Gauge({
      name: 'homecare_sync_queue_jobs',
      help: 'Jobs in the retry queue by state',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        for (const [state, count] of Object.entries(counts.queueByState()))
          this.set({ state }, count);
      },
    });
    new Gauge({
      name: 'homecare_sync_dead_letters',
      help: 'Jobs in the dead-letter list',
      registers: [this.registry],
      collect() {
        this.set(counts.deadLetters());
      },
    });
    new Gauge({
      name: 'homecare_sync_undelivered_records',
      help: 'Record versions pulled but not yet handed to the ERP',
      registers: [this.registry],
      collect() {
        this.set(counts.undelivered());
      },
    });
    if (counts.storage) this.registerStorage(counts.storage.bind(counts));
  }

  /**
   * The `storage` section of `status` as gauges: the files' bytes, rows per table and the age
   * of the oldest kept item of each kind. All three read the same figures (one reading serves
   * the scrape: the source caches it).
   */
  private registerStorage(storage: () => Promise<StorageGauges>): void {
    new Gauge({
      name: 'homecare_sync_storage_bytes',
      help: 'Bytes on disk by file: database, wal (its -wal file), archive (the inbox\u2019s .archive folder)',
      labelNames: ['file'] as const,
      registers: [this.registry],
      async collect() {
        const figures = await storage();
        this.set({ file: 'database' }, figures.databaseBytes);
        this.set({ file: 'wal' }, figures.walBytes);
        this.set({ file: 'archive' }, figures.archiveBytes);
      },
    });
    new Gauge({
      name: 'homecare_sync_table_rows',
      help: 'Rows per database table',
      labelNames: ['table'] as const,
      registers: [this.registry],
      async collect() {
        for (const [table, rows] of Object.entries((await storage()).rows))
          this.set({ table }, rows);
      },
    });
    new Gauge({
      name: 'homecare_sync_oldest_retained_age_seconds',
      help: 'Age of the oldest item each retention rule still keeps (jobs, runs, versions, ...); levels off once retention keeps up',
      labelNames: ['item'] as const,
      registers: [this.registry],
      async collect() {
        const ages = (await storage()).oldestAgeSeconds;
        // An item none of which is kept any more has no series, not a stale age.
        this.reset();
        for (const [item, age] of Object.entries(ages))
          if (age !== undefined) this.set({ item }, age);
      },
    });
  }
}
