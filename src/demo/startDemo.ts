import { setTimeout as sleep } from 'node:timers/promises';
import { createApp, type App } from '../app/app.js';
import { countsText, runOnlineCheck, verdictLines } from '../check/index.js';
import { startDaemon } from '../app/daemon.js';
import type { Config } from '../config/index.js';
import type { Variant } from '../contract/index.js';
import type { Logger } from '../log/index.js';
import { createPlatformClient } from '../platform/index.js';
import type { Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import { startSimulator, type RunningSimulator } from '../simulator/index.js';
import {
  checkDemoConfig,
  demoKey,
  demoPort,
  withPathsFrom,
  withSimulator,
  type DemoFlags,
} from './demoConfig.js';
import { clearDemoData } from './freshStart.js';
import { findTemplates, type OrderTemplates } from './orderTemplate.js';
import { createPlatformActivity, type PlatformActivity } from './platformActivity.js';
import { controlApiCreator } from './simControl.js';
import { checkPortFree, portTaken } from './ports.js';
import { createStandInErp, type StandInErp } from './standInErp.js';

/** The stand-in ERP looks at the outbox this often; each look sends one answer per order. */
export const ERP_INTERVAL_MS = 2_000;
/** The stand-in platform user places an order this often. */
export const ACTIVITY_INTERVAL_MS = 20_000;

export interface DemoOptions extends DemoFlags {
  /** The demo config (`config/demo.yaml`), loaded; `source` names it in messages. */
  config: Config;
  source: string;
  /** Relative paths of the config are taken from here. */
  cwd: string;
  clock: Clock;
  env: Readonly<Record<string, string | undefined>>;
  /** The daemon's logger; JSON lines on stdout when absent. */
  logger?: Logger;
  /** Plain lines of the stand-ins. */
  say: (line: string) => void;
  erpIntervalMs?: number;
  activityIntervalMs?: number;
}

export interface RunningDemo {
  config: Config;
  simulator: RunningSimulator;
  app: App;
  daemonUrl: string | undefined;
  erp: StandInErp;
  activity: PlatformActivity;
  /** What the fresh start removed of an earlier demo. */
  cleared: string[];
  /** Resolves when the daemon stopped on its own (its database was deleted or replaced). */
  stopped: Promise<void>;
  /** Stops the stand-ins, the daemon and the simulator, in that order. */
  stop(): Promise<void>;
}

async function templatesFrom(config: Config, clock: Clock): Promise<OrderTemplates> {
  const { baseUrl, apiKey, variant, timeoutMs } = config.platform;
  const client = createPlatformClient({
    baseUrl,
    apiKey,
    variant,
    timeoutMs,
    concurrency: 1,
    clock,
  });
  try {
    return await findTemplates(client);
  } finally {
    await client.close();
  }
}

/**
 * Runs `work`; if it fails, undoes what was started so far (last first) and fails with work's
 * error. An undo step that fails too is said, and the others still run.
 */
async function undoOnFailure<T>(
  undo: (() => Promise<void>)[],
  say: (line: string) => void,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    for (const step of undo.reverse()) {
      await step().catch((undoError: unknown) => {
        say(`demo: stopping a part after the failure failed too: ${errorMessage(undoError)}`);
      });
    }
    throw error;
  }
}

async function startLocalSimulator(options: DemoOptions, variant: Variant) {
  const port = demoPort(options.config, options);
  try {
    return await startSimulator({ variant, port, host: '127.0.0.1', clock: options.clock });
  } catch (error) {
    const problem = `the simulator needs port ${port}: stop what uses it, or pass --port <n> (0 picks a free one)`;
    throw portTaken(error, `127.0.0.1:${port}`, problem);
  }
}

async function checkEndpointPort(config: Config, source: string): Promise<void> {
  if (!config.http.enabled) return;
  const { host, port } = config.http;
  const problem = `http.port: the daemon's endpoint needs port ${port}; stop what uses it, or change http.port in ${source}`;
  await checkPortFree(host, port, problem);
}

function standIns(
  options: DemoOptions,
  config: Config,
  simulator: RunningSimulator,
  templates: OrderTemplates,
) {
  const { clock, say } = options;
  const file = config.erp.file;
  const erp = createStandInErp({
    outbox: file.outbox,
    inbox: file.inbox,
    doneMarker: file.doneMarker,
    intervalMs: options.erpIntervalMs ?? ERP_INTERVAL_MS,
    clock,
    say,
  });
  const tenant = demoKey(config)?.tenant ?? 'demo';
  const activity = createPlatformActivity({
    templates,
    create: controlApiCreator(simulator.url, simulator.controlToken, tenant),
    intervalMs: options.activityIntervalMs ?? ACTIVITY_INTERVAL_MS,
    clock,
    say,
  });
  if (Object.keys(templates).length === 0) {
    say('platform user: the seed has no Created order to copy; no new orders will be placed');
  }
  return { erp, activity };
}

/** The time limit of each point of the demo's first-contact check: all of it is local. */
const CHECK_LIMIT_MS = 5_000;

/**
 * The first-contact check (`check --online`) against the demo's own simulator and folders, its
 * verdicts said as the table the command prints: what a new installation runs first.
 */
async function firstContact(options: DemoOptions, config: Config): Promise<void> {
  const report = await runOnlineCheck(config, {
    clock: options.clock,
    limitMs: CHECK_LIMIT_MS,
    // Aborted when the check ended first: the timer goes with it.
    sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined),
    env: options.env,
    cwd: options.cwd,
  });
  options.say('first contact (homecare-sync check --online):');
  for (const line of verdictLines(report.checks)) options.say(line);
  options.say(`  ${countsText(report.checks)}`);
}

/**
 * Everything local: the platform simulator, the daemon on the demo config (pointed at it),
 * a stand-in ERP that answers the file drop, and a stand-in platform user placing orders; the
 * first-contact check's verdicts are said once the daemon runs.
 * What an earlier demo left is cleared first; if a part fails to start, the parts already
 * running are stopped again.
 */
export async function startDemo(options: DemoOptions): Promise<RunningDemo> {
  const { clock } = options;
  checkDemoConfig(options.config, options.source);
  const variant = options.variant ?? options.config.platform.variant;
  const simulator = await startLocalSimulator(options, variant);
  const undo: (() => Promise<void>)[] = [() => simulator.close()];
  return undoOnFailure(undo, options.say, async () => {
    const pointed = withSimulator(options.config, simulator.url, variant);
    const config = withPathsFrom(pointed, options.cwd);
    const templates = await templatesFrom(config, clock);
    await checkEndpointPort(config, options.source);
    const cleared = await clearDemoData(config, options.cwd, clock);
    const logger = options.logger ? { logger: options.logger } : {};
    const app = await createApp(config, { clock, env: options.env, ...logger });
    undo.push(() => app.close());
    const daemon = await startDaemon(app);
    undo.push(async () => void (await daemon.stop()));
    await firstContact(options, config);
    const { erp, activity } = standIns(options, config, simulator, templates);
    erp.start();
    activity.start();
    let stopping: Promise<void> | undefined;
    const stop = (): Promise<void> =>
      (stopping ??= (async () => {
        await activity.stop();
        await erp.stop();
        await daemon.stop();
        await app.close();
        await simulator.close();
      })());
    const daemonUrl = daemon.url;
    return {
      config,
      simulator,
      app,
      daemonUrl,
      erp,
      activity,
      cleared,
      stopped: daemon.stopped,
      stop,
    };
  });
}
