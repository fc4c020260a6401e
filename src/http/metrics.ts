import {
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type CollectFunction,
} from 'prom-client';
import { registerOnlineChecks, type KeptCheck } from './checkMetrics.js';

/** Values read from the database when Prometheus scrapes, not kept in memory. */
export interface StoredCounts {
  queueByState(): Record<string, number>;
  deadLetters(): number;
  undelivered(): number;
  /** Where the space goes; read per scrape, so it should be cached (app/storage.ts does). */
  storage?(): Promise<StorageGauges>;
  /** The operator's pauses in force: direction, and resource or kind (`*`: all of it). */
  paused?(): readonly { direction: string; target: string }[];
  /** The last verdict of each point of `check --online`, and when it was given. */
  onlineChecks?(): readonly KeptCheck[];
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
export type InboundResult = 'accepted' | 'repeat' | 'overtaken' | 'rejected';

/** Pull runs of an idle daemon take well under a second; a first pass of a big tenant, minutes. */
const PULL_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900];
/** Orders are acknowledged within a minute when all is well; hours or days when the ERP waits. */
const ACK_SECONDS = [10, 30, 60, 120, 300, 900, 1800, 3600, 4 * 3600, 24 * 3600, 7 * 24 * 3600];

interface MetricSpec {
  name: string;
  help: string;
  labelNames: readonly string[];
}

/** What the daemon counts as it goes, each by the labels it names. */
const COUNTERS = {
  pulledRecords: {
    name: 'homecare_sync_pulled_records_total',
    help: 'Record versions pulled from the platform, by resource and outcome (new, repeat, quarantined)',
    labelNames: ['resource', 'outcome'],
  },
  pullRuns: {
    name: 'homecare_sync_pull_runs_total',
    help: 'Pull runs by resource and result (ok, failed)',
    labelNames: ['resource', 'result'],
  },
  deliveredRecords: {
    name: 'homecare_sync_delivered_records_total',
    help: 'Record versions handed to the ERP, by resource',
    labelNames: ['resource'],
  },
  jobs: {
    name: 'homecare_sync_jobs_total',
    help: 'Tries of queue jobs by kind and outcome (done, retry, dead)',
    labelNames: ['kind', 'outcome'],
  },
  inboundMessages: {
    name: 'homecare_sync_inbound_messages_total',
    help: 'Messages from the ERP by kind, source (file, http) and result (accepted, repeat, overtaken, rejected)',
    labelNames: ['kind', 'source', 'result'],
  },
  skippedTicks: {
    name: 'homecare_sync_schedule_ticks_skipped_total',
    help: 'Ticks of a schedule that started no run, by task (pull <resource>, reconcile, …) and reason (overlap: its last run still went; missed: the process was busy at that time)',
    labelNames: ['task', 'reason'],
  },
  refusedRequests: {
    name: 'homecare_sync_http_refused_total',
    help: 'Requests the endpoint refused, by HTTP status and matched route (unmatched, connection: beyond the connection budget)',
    labelNames: ['status', 'route'],
  },
} as const satisfies Record<string, MetricSpec>;

/** What the daemon times, in buckets that fit what it measures. */
const HISTOGRAMS = {
  pullDuration: {
    name: 'homecare_sync_pull_duration_seconds',
    help: 'How long one pull run took, by resource, mode (incremental, reconcile) and result',
    labelNames: ['resource', 'mode', 'result'],
    buckets: PULL_SECONDS,
  },
  ackLatency: {
    name: 'homecare_sync_ack_latency_seconds',
    help: 'From a record\u2019s creation on the platform (createdAt) to its acknowledgement, by resource',
    labelNames: ['resource'],
    buckets: ACK_SECONDS,
  },
} as const satisfies Record<string, MetricSpec & { buckets: number[] }>;

type LabelsOf<Spec extends MetricSpec> = Spec['labelNames'][number];
type Counters = { [Key in keyof typeof COUNTERS]: Counter<LabelsOf<(typeof COUNTERS)[Key]>> };
type Histograms = {
  [Key in keyof typeof HISTOGRAMS]: Histogram<LabelsOf<(typeof HISTOGRAMS)[Key]>>;
};

/**
 * The daemon's Prometheus metrics; one instance per process, passed to whoever counts. Node's
 * process metrics carry no prefix, so stock Node.js dashboards work; ours start `homecare_sync_`
 * and go to this instance's registry, not prom-client's global one.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly counters: Counters = this.each(COUNTERS, (spec) => new Counter(spec));
  private readonly histograms: Histograms = this.each(HISTOGRAMS, (spec) => new Histogram(spec));
  private readonly lastSuccessfulPull = this.gauge(
    'homecare_sync_last_successful_pull_timestamp_seconds',
    'Unix time of the last successful pull per resource',
    ['resource'],
  );

  constructor(build: BuildInfo, counts?: StoredCounts) {
    collectDefaultMetrics({ register: this.registry });
    this.gauge(
      'homecare_sync_build_info',
      'Always 1; the labels say which homecare-sync runs, for which platform variant, on which Node.js',
      ['version', 'variant', 'node'],
    ).set({ version: build.version, variant: build.variant, node: process.version }, 1);
    if (counts) this.registerStoredCounts(counts);
  }

  /** A metric per spec of `specs`, by the same key, registered here. */
  private each<Specs extends Record<string, MetricSpec>, Made>(
    specs: Specs,
    make: (spec: Specs[keyof Specs] & { registers: Registry[] }) => Made,
  ): { [Key in keyof Specs]: Made } {
    const made = Object.entries(specs).map(([key, spec]) => [
      key,
      make({ ...(spec as Specs[keyof Specs]), registers: [this.registry] }),
    ]);
    return Object.fromEntries(made) as { [Key in keyof Specs]: Made };
  }

  /** `collect`: reads the value when Prometheus scrapes, instead of keeping it in memory. */
  private gauge<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    collect?: CollectFunction<Gauge<L>>,
  ) {
    const reads = collect === undefined ? {} : { collect };
    return new Gauge({ name, help, labelNames, registers: [this.registry], ...reads });
  }

  /** Counts one finished pull run. */
  observePull(
    run: {
      resource: string;
      ok: boolean;
      stopped?: true;
      mode: string;
      fresh: number;
      repeats: number;
      quarantined: number;
      startedAt: string;
      finishedAt: string;
    },
    at: Date,
  ): void {
    const result = run.ok ? 'ok' : run.stopped === true ? 'stopped' : 'failed';
    this.counters.pullRuns.inc({ resource: run.resource, result });
    const seconds = (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000;
    if (Number.isFinite(seconds)) {
      this.histograms.pullDuration.observe(
        { resource: run.resource, mode: run.mode, result },
        seconds,
      );
    }
    this.counters.pulledRecords.inc({ resource: run.resource, outcome: 'new' }, run.fresh);
    this.counters.pulledRecords.inc({ resource: run.resource, outcome: 'repeat' }, run.repeats);
    this.counters.pulledRecords.inc(
      { resource: run.resource, outcome: 'quarantined' },
      run.quarantined,
    );
    if (run.ok && run.mode === 'incremental') {
      this.lastSuccessfulPull.set({ resource: run.resource }, at.getTime() / 1000);
    }
  }

  jobEnded(kind: string, outcome: 'done' | 'retry' | 'dead'): void {
    this.counters.jobs.inc({ kind, outcome });
  }

  recordsDelivered(resource: string, count: number): void {
    this.counters.deliveredRecords.inc({ resource }, count);
  }

  acknowledged(resource: string, latencySeconds: number): void {
    this.histograms.ackLatency.observe({ resource }, Math.max(0, latencySeconds));
  }

  /** ERP messages taken or refused, from the file inbox or the endpoint. */
  inbound(
    labels: { kind: string; source: InboundSource; result: InboundResult },
    messages = 1,
  ): void {
    this.counters.inboundMessages.inc(labels, messages);
  }

  /** A tick of a schedule that started no run (the scheduler's `skipped`). */
  tickSkipped(task: string, reason: string): void {
    this.counters.skippedTicks.inc({ task, reason });
  }

  /** A request the endpoint refused (401, 400, 404, 409, 413, 415, 503 beyond the budget). */
  refused(status: number, route: string): void {
    this.counters.refusedRequests.inc({ status: String(status), route });
  }

  private registerStoredCounts(counts: StoredCounts): void {
    this.gauge(
      'homecare_sync_queue_jobs',
      'Jobs in the retry queue by state',
      ['state'],
      function () {
        for (const [state, count] of Object.entries(counts.queueByState()))
          this.set({ state }, count);
      },
    );
    this.gauge('homecare_sync_dead_letters', 'Jobs in the dead-letter list', [], function () {
      this.set(counts.deadLetters());
    });
    this.gauge(
      'homecare_sync_undelivered_records',
      'Record versions pulled but not yet handed to the ERP',
      [],
      function () {
        this.set(counts.undelivered());
      },
    );
    if (counts.storage) this.registerStorage(counts.storage.bind(counts));
    if (counts.paused) this.registerPaused(counts.paused.bind(counts));
    if (counts.onlineChecks) registerOnlineChecks(this.registry, counts.onlineChecks.bind(counts));
  }

  /**
   * 1 per pause in force. The whole directions (`resource="*"`) always have a series, 0 while
   * not paused, so a dashboard shows them before the first pause.
   */
  private registerPaused(paused: () => readonly { direction: string; target: string }[]): void {
    this.gauge(
      'homecare_sync_paused',
      'Whether an operator paused the pulls (direction="pull") of a resource or the platform writes (direction="push") of a job kind; resource="*" is the whole direction',
      ['direction', 'resource'],
      function () {
        // A resumed resource has no series, not a stale 1.
        this.reset();
        for (const direction of ['pull', 'push']) this.set({ direction, resource: '*' }, 0);
        for (const p of paused()) this.set({ direction: p.direction, resource: p.target }, 1);
      },
    );
  }

  /**
   * The `storage` section of `status` as gauges: the files' bytes, rows per table and the age
   * of the oldest kept item of each kind. All three read the same figures (one reading serves
   * the scrape: the source caches it).
   */
  private registerStorage(storage: () => Promise<StorageGauges>): void {
    this.gauge(
      'homecare_sync_storage_bytes',
      'Bytes on disk by file: database, wal (its -wal file), archive (the inbox\u2019s .archive folder)',
      ['file'],
      async function () {
        const figures = await storage();
        this.set({ file: 'database' }, figures.databaseBytes);
        this.set({ file: 'wal' }, figures.walBytes);
        this.set({ file: 'archive' }, figures.archiveBytes);
      },
    );
    this.gauge('homecare_sync_table_rows', 'Rows per database table', ['table'], async function () {
      for (const [table, rows] of Object.entries((await storage()).rows)) this.set({ table }, rows);
    });
    this.gauge(
      'homecare_sync_oldest_retained_age_seconds',
      'Age of the oldest item each retention rule still keeps (jobs, runs, versions, ...); levels off once retention keeps up',
      ['item'],
      async function () {
        const ages = (await storage()).oldestAgeSeconds;
        // An item none of which is kept any more has no series, not a stale age.
        this.reset();
        for (const [item, age] of Object.entries(ages))
          if (age !== undefined) this.set({ item }, age);
      },
    );
  }
}
