import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';

/** Values read from the database when Prometheus scrapes, not kept in memory. */
export interface StoredCounts {
  queueByState(): Record<string, number>;
  deadLetters(): number;
  undelivered(): number;
}

/** The daemon's Prometheus metrics; one instance per process, passed to whoever counts. */
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
  readonly lastSuccessfulPull = new Gauge({
    name: 'homecare_sync_last_successful_pull_timestamp_seconds',
    help: 'Unix time of the last successful pull per resource',
    labelNames: ['resource'] as const,
    registers: [this.registry],
  });
  readonly inboundMessages = new Counter({
    name: 'homecare_sync_inbound_messages_total',
    help: 'Messages from the ERP by kind, source (file, http) and result (accepted, repeat, rejected)',
    labelNames: ['kind', 'source', 'result'] as const,
    registers: [this.registry],
  });

  /** Counts one finished pull run. */
  observePull(
    run: {
      resource: string;
      ok: boolean;
      mode: string;
      fresh: number;
      repeats: number;
      quarantined: number;
    },
    at: Date,
  ): void {
    this.pullRuns.inc({ resource: run.resource, result: run.ok ? 'ok' : 'failed' });
    this.pulledRecords.inc({ resource: run.resource, outcome: 'new' }, run.fresh);
    this.pulledRecords.inc({ resource: run.resource, outcome: 'repeat' }, run.repeats);
    this.pulledRecords.inc({ resource: run.resource, outcome: 'quarantined' }, run.quarantined);
    if (run.ok && run.mode === 'incremental') {
      this.lastSuccessfulPull.set({ resource: run.resource }, at.getTime() / 1000);
    }
  }

  constructor(counts?: StoredCounts) {
    collectDefaultMetrics({ register: this.registry, prefix: 'homecare_sync_' });
    if (counts) this.registerStoredCounts(counts);
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
  }
}
