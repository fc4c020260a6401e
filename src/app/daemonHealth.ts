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

/** The later of two ISO times, either of which may be missing. */
function later(a: string | undefined, b: string | undefined): string | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  return Date.parse(a) >= Date.parse(b) ? a : b;
}

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
 * every `http.readyCheckSeconds`: the client's probe (an authorised GET /region over a
 * connection of its own) and the ERP adapter's probe: a file made and removed in the
 * outbox, or a HEAD to the REST ERP over the adapter's own connections.
 */
export function daemonHealth(app: App, startedAt: Date): DaemonHealth {
  const { http, timezone } = app.config;
  const intervalMs = http.readyCheckSeconds * 1000;
  const platform = new CachedProbe(() => app.client.probe(), intervalMs, app.clock);
  const erp = new CachedProbe(() => app.adapter.probe(), intervalMs, app.clock);
  // When the platform answered again after it failed: pulls are late from then only.
  let platformDown = false;
  let platformBackAt: string | undefined;
  const platformCheck = (): CheckResult => {
    const result = platform.status();
    if (!result.ok) platformDown = true;
    else if (platformDown) {
      platformDown = false;
      platformBackAt = app.clock.now().toISOString();
    }
    return result;
  };
  const database = (): CheckResult =>
    databaseAnswers(app.store) ? { ok: true } : { ok: false, problem: 'does not answer' };
  const storage = (): CheckResult => roomCheck(app.store.room);

  /**
   * A resource an operator paused is left out; once resumed, it counts from the resume (its
   * last pull is as old as the pause). After a platform outage every resource counts from when
   * the platform answered again: its pulls could not be made before (the outage has its own
   * alert), and are late only if they do not catch up then.
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
      resources: enabled.map((r) => {
        const countFrom = later(resumed[r.resource], platformBackAt);
        return {
          resource: r.resource,
          schedule: r.schedule,
          lastSuccessAt: last[r.resource],
          ...(countFrom === undefined ? {} : { countFrom }),
        };
      }),
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
        platform: platformCheck(),
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
