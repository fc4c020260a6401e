import { resolve } from 'node:path';
import type { Config } from '../config/index.js';
import type { Variant } from '../contract/index.js';
import { SetupError } from '../shared/errors.js';
import { DEFAULT_KEYS, type ApiKeyEntry } from '../simulator/index.js';

/** Where the demo's simulator listens unless the config or `--port` says otherwise. */
export const DEFAULT_DEMO_PORT = 8455;
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

export interface DemoFlags {
  port?: number;
  variant?: Variant;
}

/** `--port`, else the port of `platform.baseUrl`, else 8455. */
export function demoPort(config: Config, flags: DemoFlags): number {
  if (flags.port !== undefined) return flags.port;
  const port = new URL(config.platform.baseUrl).port;
  return port === '' ? DEFAULT_DEMO_PORT : Number(port);
}

/** The simulator key the daemon uses (so the demo's platform user acts in the same tenant). */
export function demoKey(config: Config): ApiKeyEntry | undefined {
  return DEFAULT_KEYS.find((entry) => entry.key === config.platform.apiKey);
}

/**
 * What the demo needs of its config: a platform on this machine (the demo starts the simulator
 * there, and clears the demo's data, which must never be a real installation's), one of the
 * simulator's keys, and the JSON file drop the stand-in ERP reads and answers.
 */
export function demoConfigProblems(config: Config): string[] {
  const problems: string[] = [];
  const host = new URL(config.platform.baseUrl).hostname;
  if (!LOOPBACK.has(host)) {
    problems.push(
      `platform.baseUrl: the demo runs its own simulator on this machine; use http://127.0.0.1:<port>, got ${config.platform.baseUrl}`,
    );
  }
  if (!demoKey(config)) {
    const keys = DEFAULT_KEYS.map((entry) => entry.key).join(', ');
    problems.push(`platform.apiKey: must be one of the simulator's keys (${keys})`);
  }
  if (config.erp.adapter !== 'file') {
    problems.push(`erp.adapter: the demo's stand-in ERP works on the file drop; set it to file`);
  }
  if (config.erp.file.format !== 'json') {
    problems.push(
      `erp.file.format: the demo's stand-in ERP reads JSON files; set it to json, got ${config.erp.file.format}`,
    );
  }
  return problems;
}

export function checkDemoConfig(config: Config, source: string): void {
  const problems = demoConfigProblems(config);
  if (problems.length > 0) {
    throw new SetupError(`${source} cannot be used for the demo`, problems);
  }
}

/** The config pointed at the simulator the demo started. */
export function withSimulator(config: Config, simulatorUrl: string, variant: Variant): Config {
  return { ...config, platform: { ...config.platform, baseUrl: simulatorUrl, variant } };
}

/**
 * The config with its database and ERP folders made absolute from `cwd`, so the daemon, the
 * stand-in ERP and the fresh start all mean the same files wherever the process runs.
 */
export function withPathsFrom(config: Config, cwd: string): Config {
  const file = config.erp.file;
  return {
    ...config,
    storage: { ...config.storage, path: resolve(cwd, config.storage.path) },
    erp: {
      ...config.erp,
      file: { ...file, outbox: resolve(cwd, file.outbox), inbox: resolve(cwd, file.inbox) },
    },
  };
}
