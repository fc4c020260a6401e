import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { contractFor } from '../../src/contract/index.js';
import { pullTargets } from '../../src/pull/targets.js';
import { asInContainer } from '../support/daemonCommand.js';
import { startNode, type RunningProgram } from './child.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const NAIVE = join(ROOT, 'bench/peers/naive.mjs');
const NODE_RED = join(ROOT, 'bench/peers/node-red');
const NODE_RED_MAIN = join(NODE_RED, 'node_modules/node-red/red.js');
const SQL_COUNTER = join(ROOT, 'bench/support/sqlCounter.mjs');

/** Where one program runs the job: the simulator it talks to and the folder it may use. */
export interface JobSetup {
  simulatorUrl: string;
  apiKey: string;
  /** A fresh, empty folder for the program's own files. */
  folder: string;
  /** Where each order's JSON file is expected (the file names start with the order's id). */
  outbox: string;
  /** The poll interval every program is given. */
  scheduleSeconds: number;
  /** homecare-sync's `sync.overlapSeconds`, when not its default. */
  overlapSeconds?: number;
}

export interface Program {
  name: string;
  /** Why it cannot run here, or undefined when it can. */
  unavailable(): string | undefined;
  start(setup: JobSetup): RunningProgram;
}

/** What an order's enrichment reads from the mirror: pulled on the same schedule. */
const REFERENCED = ['patient', 'integratedCare', 'article'] as const;

/**
 * The created single orders and the records their enrichment needs, every `scheduleSeconds`;
 * every other list switched off.
 */
function daemonConfig(setup: JobSetup): Record<string, unknown> {
  const schedule = `*/${setup.scheduleSeconds} * * * * *`;
  const resources: Record<string, unknown> = {};
  for (const target of pullTargets(contractFor('B'))) {
    resources[target.resource] = { enabled: false };
  }
  for (const resource of REFERENCED) resources[resource] = { schedule };
  resources['singleOrder'] = { schedule, statuses: ['created'] };
  return {
    platform: { baseUrl: setup.simulatorUrl, apiKey: setup.apiKey, variant: 'B' },
    storage: { path: join(setup.folder, 'homecare-sync.db') },
    sync: {
      jitterSeconds: 0,
      reconcile: { enabled: false },
      resources,
      ...(setup.overlapSeconds === undefined ? {} : { overlapSeconds: setup.overlapSeconds }),
    },
    erp: {
      adapter: 'file',
      file: { outbox: setup.outbox, inbox: join(setup.folder, 'inbox'), format: 'json' },
    },
    http: { enabled: false },
    log: { level: 'info' },
  };
}

let daemonRuns = 0;

/**
 * BENCH_CYCLE_SQL=<folder>: each daemon run (of the cycle and the idle benchmark) counts the SQL it runs (sqlCounter.mjs), written to
 * `<folder>/sql-<run>.json` when it stops; `bench/sqlSummary.ts` reads it.
 */
function sqlCounting(): { flags: string[]; env: Record<string, string> } {
  const folder = process.env['BENCH_CYCLE_SQL'];
  if (folder === undefined) return { flags: [], env: {} };
  daemonRuns += 1;
  return {
    flags: ['--import', SQL_COUNTER],
    env: { BENCH_SQL_COUNTS: join(folder, `sql-${daemonRuns}.json`) },
  };
}

export const homecareSync: Program = {
  name: 'homecare-sync',
  unavailable: () => undefined,
  start(setup) {
    const configPath = join(setup.folder, 'homecare-sync.yaml');
    writeFileSync(configPath, stringify(daemonConfig(setup)));
    // BENCH_CYCLE_PROFILE=<folder>: a CPU profile of each daemon run, written when it stops.
    const profile = process.env['BENCH_CYCLE_PROFILE'];
    const flags = profile === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${profile}`];
    // BENCH_CYCLE_NODE_FLAGS="--perf-basic-prof …": node flags of its own (for perf, GC traces).
    flags.push(...(process.env['BENCH_CYCLE_NODE_FLAGS']?.split(' ').filter(Boolean) ?? []));
    const sql = sqlCounting();
    // As in its container: node with the Dockerfile's flags, dist/ built (ensureBuilt).
    const args = [...flags, ...sql.flags, ...asInContainer(['run', '-c', configPath])];
    return startNode(args, setup.folder, sql.env);
  },
};

const peerEnv = (setup: JobSetup): Record<string, string> => ({
  SIM_URL: setup.simulatorUrl,
  API_KEY: setup.apiKey,
  OUTBOX: setup.outbox,
  SCHEDULE_SECONDS: String(setup.scheduleSeconds),
});

export const naiveScript: Program = {
  name: 'naive script',
  unavailable: () => undefined,
  start: (setup) => startNode([NAIVE], setup.folder, peerEnv(setup)),
};

export const nodeRed: Program = {
  name: 'Node-RED',
  unavailable: () =>
    existsSync(NODE_RED_MAIN)
      ? undefined
      : 'not installed (cd bench/peers/node-red && npm install to compare with it)',
  start: (setup) =>
    startNode(
      [
        NODE_RED_MAIN,
        '--settings',
        join(NODE_RED, 'settings.cjs'),
        '--userDir',
        join(setup.folder, 'node-red'),
        join(NODE_RED, 'flow.json'),
      ],
      setup.folder,
      peerEnv(setup),
    ),
};

/** The version of the installed Node-RED, for the report. */
export function nodeRedVersion(): string {
  try {
    const text = readFileSync(join(NODE_RED, 'node_modules/node-red/package.json'), 'utf8');
    const pkg = JSON.parse(text) as { version?: string };
    return pkg.version ?? '?';
  } catch {
    return '?';
  }
}
