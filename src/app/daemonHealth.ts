/**
 * The running daemon's health: reads its app (store, probes, pauses, scheduler) and feeds the
 * rules of http/readiness.ts, which decide from plain values alone and know no app.
 */
import { CachedProbe } from '../http/probe.js';
import {
  deliveryStalls,
  roomCheck,
  pullFreshness,
  readinessOf,
  type CheckResult,
  type Readiness,
} from '../http/readiness.js';
import { HAND_OVERS, PLATFORM_WRITES } from '../queue/index.js';
import {
  databaseAnswers,
  heldWrites,
  isPullPaused,
  lastSuccessfulPulls,
  oldestOpenJob,
  pullsResumedAt,
} from '../store/index.js';
import type { App } from './app.js';

export interface DaemonHealth {
  /** Liveness: the process runs and its database answers. */
  live: () => CheckResult;
  /** Whether the daemon can do its job now: every check (see docs/readme/endpoint.md). */
  ready: () => Readiness;
  /** Whether POST /erp/<kind> can take messages: only the database is needed for that. */
  inboundReady: () => Readiness;
  /** Probes the platform and the ERP now (at start, so the first /readyz has an answer). */
  refresh: () => Promise<void>;
}

/**
 * The daemon's health for `/healthz` and `/readyz`. The platform and the ERP are probed at most
 * every `http.readyCheckSeconds`: an authorised GET /region (every variant has it, no
 * parameters, a short list) and the ERP adapter's probe: a file made and removed in the
 * outbox, or a HEAD to the REST ERP over the adapter's own connections.
 */
export function daemonHealth(app: App, startedAt: Date): DaemonHealth {
  const { http, timezone } = app.config;
  const intervalMs = http.readyCheckSeconds * 1000;
  const platform = new CachedProbe(
    async () => void (await app.client.send('region', 'list')),
    intervalMs,
    app.clock,
  );
  const erp = new CachedProbe(() => app.adapter.probe(), intervalMs, app.clock);
  const database = (): CheckResult =>
    databaseAnswers(app.store) ? { ok: true } : { ok: false, problem: 'does not answer' };
  const storage = (): CheckResult => roomCheck(app.store.room);

  /**
   * A resource an operator paused is left out; once resumed, it counts from the resume (its
   * last pull is as old as the pause).
   */
  function pulls(): CheckResult {
    const enabled = app.resources.filter((r) => r.enabled && !isPullPaused(app.store, r.resource));
    const names = enabled.map((r) => r.resource);
    const last = lastSuccessfulPulls(app.store, names);
    const resumed = pullsResumedAt(app.store, names);
    return pullFreshness({
      now: app.clock.now(),
      startedAt,
      timeZone: timezone,
      toleratedIntervals: http.readyToleratedIntervals,
      resources: enabled.map((r) => ({
        resource: r.resource,
        schedule: r.schedule,
        lastSuccessAt: last[r.resource],
        ...(resumed[r.resource] === undefined ? {} : { countFrom: resumed[r.resource] }),
      })),
    });
  }

  /** Platform writes an operator paused wait by intent: they are left out. */
  function delivery(): CheckResult {
    const held = heldWrites(app.store);
    const writes = held.every
      ? []
      : [
          {
            what: 'queue job(s) not yet done',
            ...oldestOpenJob(app.store, PLATFORM_WRITES, held.kinds),
          },
        ];
    return deliveryStalls(app.clock.now(), http.readyStalledMinutes * 60_000, [
      { what: 'record version(s) not yet in the ERP', ...oldestOpenJob(app.store, HAND_OVERS) },
      ...writes,
    ]);
  }

  return {
    live: database,
    ready: () => {
      const db = database();
      if (!db.ok) return readinessOf({ database: db });
      return readinessOf({
        database: db,
        storage: storage(),
        platform: platform.status(),
        erp: erp.status(),
        pulls: pulls(),
        delivery: delivery(),
      });
    },
    inboundReady: () => readinessOf({ database: database(), storage: storage() }),
    refresh: async () => {
      await Promise.all([platform.refresh(), erp.refresh()]);
    },
  };
}
