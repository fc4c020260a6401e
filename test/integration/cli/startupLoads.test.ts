import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';
import { cliFolder, SIM_KEYS, type CliFolder } from '../../support/cli/cliFolder.js';
import {
  killIfRunning,
  startDaemonProcess,
  withinBound,
  type DaemonProcess,
} from '../../support/cli/daemonProcess.js';

/**
 * Preloaded into the daemon: writes the file of every module it loads to $LOADED_MODULES, both
 * ES modules (a loader hook, on its own thread) and CommonJS ones (required by packages).
 */
const RECORDER = `
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
const log = process.env.LOADED_MODULES;
register('data:text/javascript,' + encodeURIComponent(
  "import { appendFileSync } from 'node:fs';" +
  "export async function load(url, context, next) {" +
  "  appendFileSync(" + JSON.stringify(log) + ", url + '\\\\n'); return next(url, context); }"));
const Module = createRequire(import.meta.url)('node:module');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  try { appendFileSync(log, Module._resolveFilename(request, parent, isMain) + '\\n'); } catch {}
  return load.apply(this, arguments);
};
`;

/** The packages (and our modules, as built: see builtCli.ts) only some configurations need. */
const OPTIONAL = {
  endpoint: ['node_modules/fastify/', 'node_modules/cron-parser/', 'dist/http/server.js'],
  metrics: ['node_modules/prom-client/', 'dist/http/metrics.js'],
  xml: ['node_modules/xmlbuilder2/'],
  csv: ['node_modules/csv-parse/', 'node_modules/csv-stringify/', 'node_modules/iconv-lite/'],
  pretty: ['node_modules/pino-pretty/'],
  rest: ['dist/erp/outbound/rest/'],
  console: ['dist/console/', 'dist/trace/restHandOvers.js'],
};

let sim: TestSimulator;
let f: CliFolder | undefined;
let daemon: DaemonProcess | undefined;

beforeAll(async () => {
  sim = await startTestSimulator({ keys: SIM_KEYS, seed: 5 });
});
afterEach(async () => {
  await killIfRunning(daemon);
  f?.cleanup();
});
afterAll(async () => {
  await sim.close();
});

/** Starts `run` with the config's `extra` sections, stops it cleanly, and lists what it loaded. */
async function loadedBy(extra: Record<string, unknown>): Promise<string[]> {
  f = cliFolder(sim.url, extra);
  const recorder = join(f.folder, 'recorder.mjs');
  const log = join(f.folder, 'loaded.txt');
  writeFileSync(recorder, RECORDER);
  writeFileSync(log, '');
  daemon = startDaemonProcess(f.configPath, f.folder, {
    nodeArgs: ['--import', pathToFileURL(recorder).href],
    env: { LOADED_MODULES: log },
  });
  await daemon.waitForLog('homecare-sync started');
  daemon.signal('SIGTERM');
  expect(await withinBound(daemon.exited, 'run to stop')).toBe(0);
  return readFileSync(log, 'utf8').split('\n');
}

const loadedAny = (loaded: readonly string[], parts: readonly string[]) =>
  parts.filter((part) => loaded.some((file) => file.includes(part)));

describe('run loads what its config needs', () => {
  it('without the endpoint, with JSON files and JSON log lines: no fastify, prom-client, XML or CSV writers, pino-pretty or REST adapter', async () => {
    const loaded = await loadedBy({ http: { enabled: false } });
    // The recorder saw the start: the platform client's undici and our own modules.
    expect(loadedAny(loaded, ['node_modules/undici/', 'dist/app/daemon.js'])).toHaveLength(2);
    for (const parts of Object.values(OPTIONAL)) expect(loadedAny(loaded, parts)).toEqual([]);
  }, 60_000);

  it('with the endpoint: fastify and the metrics, still no XML or CSV writers', async () => {
    const loaded = await loadedBy({ http: { enabled: true, host: '127.0.0.1', port: 0 } });
    expect(loadedAny(loaded, OPTIONAL.endpoint)).toEqual(OPTIONAL.endpoint);
    expect(loadedAny(loaded, OPTIONAL.metrics)).toEqual(OPTIONAL.metrics);
    expect(
      loadedAny(loaded, [...OPTIONAL.xml, ...OPTIONAL.csv, ...OPTIONAL.rest, ...OPTIONAL.console]),
    ).toEqual([]);
  }, 60_000);

  it('with the console: its pages, still no REST adapter', async () => {
    const loaded = await loadedBy({
      http: { enabled: true, host: '127.0.0.1', port: 0 },
      console: { enabled: true, operatorToken: 'console-operator-8e2b4d61a9f0' },
    });
    expect(loadedAny(loaded, ['dist/console/index.js'])).toEqual(['dist/console/index.js']);
    expect(loadedAny(loaded, [...OPTIONAL.rest, 'dist/trace/restHandOvers.js'])).toEqual([]);
  }, 60_000);
});
