import { afterAll, beforeAll } from 'vitest';
import type { SimulatorOptions } from '../../../src/simulator/index.js';
import { startTestSimulator, type TestSimulator } from '../simulator.js';
import { cliFolder, SIM_KEYS, type CliFolder } from './cliFolder.js';
import {
  killIfRunning,
  startDaemonProcess,
  type DaemonProcess,
  type DaemonProcessOptions,
} from './daemonProcess.js';

/** A simulator, a CLI folder for it, and the daemons a test starts on that folder's config. */
export interface DaemonRig {
  sim: TestSimulator;
  f: CliFolder;
  /** `homecare-sync run` on the folder's config; one still running after the tests is killed. */
  start: (options?: DaemonProcessOptions) => DaemonProcess;
  /** Every daemon `start` started, the first first. */
  daemons: readonly DaemonProcess[];
}

export interface DaemonRigOptions {
  /** The simulator's seed, sizes, …; its keys are SIM_KEYS unless given. */
  simulator?: Partial<SimulatorOptions>;
  /**
   * Config sections that replace cliFolder's (see there); a function when they are known only
   * once an earlier beforeAll of the test ran.
   */
  config?: Record<string, unknown> | (() => Record<string, unknown>);
}

/**
 * One DaemonRig for the tests of a file (or a describe): started before them, and after them
 * every daemon killed, the simulator closed and the folder removed. Call the result inside a
 * test or a later hook.
 */
export function useDaemonRig(options: DaemonRigOptions = {}): () => DaemonRig {
  let rig: DaemonRig | undefined;
  const daemons: DaemonProcess[] = [];
  // Seeding a large simulator takes a while on a busy CI machine.
  beforeAll(async () => {
    const sim = await startTestSimulator({ keys: SIM_KEYS, ...options.simulator });
    const { config = {} } = options;
    const f = cliFolder(sim.url, typeof config === 'function' ? config() : config);
    const start = (extra?: DaemonProcessOptions) => {
      const daemon = startDaemonProcess(f.configPath, f.folder, extra);
      daemons.push(daemon);
      return daemon;
    };
    rig = { sim, f, start, daemons };
  }, 60_000);
  afterAll(async () => {
    for (const daemon of daemons) await killIfRunning(daemon);
    await rig?.sim.close();
    rig?.f.cleanup();
  });
  return () => {
    if (!rig) throw new Error('the daemon rig is not started: call inside a test or a later hook');
    return rig;
  };
}
