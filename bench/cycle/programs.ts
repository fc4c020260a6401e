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
    sync: { jitterSeconds: 0, reconcile: { enabled: false }, resources },
    erp: {
      adapter: 'file',
      file: { outbox: setup.outbox, inbox: join(setup.folder, 'inbox'), format: 'json' },
    },
    http: { enabled: false },
    log: { level: 'info' },
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
    // As in its container: node with the Dockerfile's flags, dist/ built (ensureBuilt).
    return startNode([...flags, ...asInContainer(['run', '-c', configPath])], setup.folder, {});
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
