import { afterEach, beforeEach } from 'vitest';
import type { App } from '../../src/app/app.js';
import { syncOnce, type SyncReport } from '../../src/app/syncOnce.js';
import type { ResourceName, Variant } from '../../src/contract/index.js';
import type { LoopSuppression } from '../../src/simulator/index.js';
import { appRig, type AppRig } from './appRig.js';
import { FakeClock } from './fakeClock.js';
import { startTestSimulator, type TestSimulator } from './simulator.js';

export const CYCLE_START = '2026-03-01T08:00:00.000Z';

/** A simulator and a daemon's App over it, each on its own fake clock, started per test. */
export interface AppCycle {
  sim: TestSimulator;
  simClock: FakeClock;
  rig: AppRig;
  app: App;
  /** A minute later on both clocks, one `sync --once` pass over `resources`. */
  pass(resources: readonly ResourceName[]): Promise<SyncReport>;
  /** The App closed and a new one opened over the same database, as after a crash: `app` is it. */
  restart(): Promise<App>;
}

export interface AppCycleOptions {
  variant: Variant;
  loopSuppression?: LoopSuppression;
  /** More `erp.file` settings (see appRig). */
  file?: Record<string, unknown>;
  /** Top-level config sections that replace the rig's (see appRig). */
  extra?: Record<string, unknown>;
}

/** Starts an AppCycle before each test of the describe and closes it after; call inside a test. */
export function useAppCycle(options: AppCycleOptions): () => AppCycle {
  let cycle: AppCycle | undefined;
  beforeEach(async () => {
    const { variant, loopSuppression, file, extra } = options;
    const simClock = new FakeClock(CYCLE_START);
    const sim = await startTestSimulator({
      variant,
      clock: simClock,
      ...(loopSuppression === undefined ? {} : { loopSuppression }),
    });
    const rig = appRig(sim.url, variant, CYCLE_START, extra, file);
    const started: AppCycle = {
      sim,
      simClock,
      rig,
      app: await rig.open(),
      pass: (resources) => {
        simClock.advance(60_000);
        rig.clock.advance(60_000);
        return syncOnce(started.app, resources);
      },
      async restart() {
        await started.app.close();
        started.app = await rig.open();
        return started.app;
      },
    };
    cycle = started;
  });
  afterEach(async () => {
    await cycle?.app.close();
    await cycle?.sim.close();
    cycle?.rig.cleanup();
    cycle = undefined;
  });
  return () => {
    if (cycle === undefined) throw new Error('the app cycle is not started: call inside a test');
    return cycle;
  };
}
