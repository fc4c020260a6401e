import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../config/index.js';
import { contractFor, type Contract } from '../contract/index.js';
import { createPlatformClient, type PlatformClient } from '../platform/index.js';
import { daemonPullTargets, type PullTarget } from '../pull/targets.js';
import type { Clock } from '../shared/clock.js';
import { errorMessage } from '../shared/errors.js';
import { openStore, SchemaBehindError, type Store } from '../store/index.js';
import type { Lookup, StatFs } from './system.js';

/** What the check is built with: the composition root passes the real ones, tests their own. */
export interface CheckDeps {
  clock: Clock;
  /** The time limit of each check (`--timeout`). */
  limitMs: number;
  /** Resolves after `ms`, or at once when `signal` aborts: the timer of the time limits. */
  sleep(ms: number, signal: AbortSignal, id: string): Promise<void>;
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read from. */
  env: Readonly<Record<string, string | undefined>>;
  /** Relative folders of the config are taken from here, as the daemon takes them. */
  cwd: string;
  /** Host name resolution; the system's (getaddrinfo, as connections use it) by default. */
  lookup?: Lookup;
  /** Free space of a file system; the system's by default. */
  statfs?: StatFs;
}

/** The database as the check found it; it never migrates one. */
export type DatabaseState =
  | { state: 'open'; store: Store; created: boolean }
  | { state: 'behind'; from: number; to: number; message: string }
  | { state: 'unusable'; message: string };

/** What the checks share: the config, one platform client and one look at the database. */
export interface CheckContext {
  config: Config;
  deps: CheckDeps;
  contract: Contract;
  /** The pulls the daemon would make, as it derives them. */
  targets: readonly PullTarget[];
  /** The platform client, built on first use with the check's time limit and no retries. */
  client(): PlatformClient;
  /** The database, opened (or created) on first use without migrating it. */
  database(): DatabaseState;
  close(): Promise<void>;
}

function openDatabase(config: Config, clock: Clock): DatabaseState {
  const existed = existsSync(resolve(config.storage.path));
  try {
    const store = openStore({ path: config.storage.path, clock, migrate: false });
    return { state: 'open', store, created: !existed };
  } catch (error) {
    if (error instanceof SchemaBehindError) {
      return { state: 'behind', from: error.from, to: error.to, message: error.message };
    }
    return { state: 'unusable', message: errorMessage(error) };
  }
}

/**
 * A client as the daemon's, but no request is tried again (a check reports the first answer)
 * and none waits longer than the check's time limit.
 */
function checkClient(config: Config, deps: CheckDeps): PlatformClient {
  const { platform } = config;
  return createPlatformClient({
    baseUrl: platform.baseUrl,
    apiKey: platform.apiKey,
    variant: platform.variant,
    paths: platform.paths,
    timeoutMs: Math.min(platform.timeoutMs, deps.limitMs),
    concurrency: 1,
    retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 },
    ...(platform.caFile === undefined ? {} : { caFile: platform.caFile }),
    clock: deps.clock,
    env: deps.env,
  });
}

export function createCheckContext(config: Config, deps: CheckDeps): CheckContext {
  const contract = contractFor(config.platform.variant, config.platform.paths, {
    integratedCareAck: config.ack.integratedCare,
  });
  let client: PlatformClient | undefined;
  let database: DatabaseState | undefined;
  return {
    config,
    deps,
    contract,
    targets: daemonPullTargets(config, contract),
    client: () => (client ??= checkClient(config, deps)),
    database: () => (database ??= openDatabase(config, deps.clock)),
    async close() {
      // A request a check gave up on (its time ran out) must not hold the command's exit.
      await client?.destroy();
      if (database?.state === 'open') database.store.close();
    },
  };
}
