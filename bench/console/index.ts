/**
 * `npm run bench -- console`: the operator's console (issue 40) on a database of 1,000,000
 * ledger rows (fill.ts): the server time from a search to the record's story, by each kind of
 * key, the weight of every page, and that no page asks for anything from elsewhere. The console
 * runs on the daemon's real endpoint in this process, over loopback; the client is undici.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { request } from 'undici';
import { storageFigures } from '../../src/readModels/index.js';
import { loadConfig } from '../../src/config/index.js';
import { consolePlugin } from '../../src/console/index.js';
import { startHttpEndpoint } from '../../src/http/server.js';
import { systemClock } from '../../src/shared/clock.js';
import { openStore } from '../../src/store/index.js';
import { fileHandOvers } from '../../src/trace/index.js';
import type { Benchmark, TargetFigure } from '../support/benchmark.js';
import { count, millis, median, percentile, seconds } from '../support/format.js';
import { withTempFolder } from '../support/tempFolder.js';
import {
  customerId,
  erpOrderNumber,
  fillStore,
  inboxFile,
  LEDGER_ROWS,
  orderId,
  ORDERS,
  salesId,
} from './fill.js';

const TOKEN = 'bench-console-operator-token';
const ROUNDS = 30;
const TARGET_MS = 100;
const TARGET_BYTES = 100 * 1024;

interface Fetched {
  status: number;
  location: string | undefined;
  body: string;
  csp: string | undefined;
}

async function get(base: string, path: string): Promise<Fetched> {
  const answer = await request(`${base}${path}`, {
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  const location = answer.headers['location'];
  const csp = answer.headers['content-security-policy'];
  return {
    status: answer.statusCode,
    location: typeof location === 'string' ? location : undefined,
    body: await answer.body.text(),
    csp: typeof csp === 'string' ? csp : undefined,
  };
}

/** A search, and the story it leads to: the time of both answers together. */
async function searchToStory(base: string, key: string): Promise<number> {
  const started = performance.now();
  const found = await get(base, `/console/search?q=${encodeURIComponent(key)}`);
  if (found.status === 303 && found.location !== undefined) {
    const story = await get(base, found.location);
    if (story.status !== 200) throw new Error(`the story of ${key} answered ${story.status}`);
  } else if (found.status !== 200) {
    throw new Error(`the search for ${key} answered ${found.status}`);
  }
  return performance.now() - started;
}

/** Addresses a page asks the browser for (src, href, action): the console's own, or not. */
function externalReferences(html: string): string[] {
  return [...html.matchAll(/\s(?:src|href|action)="([^"]*)"/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => !target.startsWith('/console') && !target.startsWith('#'));
}

/** The console on the daemon's endpoint, over the filled database; closed by `close`. */
async function startConsole(folder: string) {
  const configPath = join(folder, 'homecare-sync.yaml');
  writeFileSync(
    configPath,
    `platform: { baseUrl: "http://127.0.0.1:9", apiKey: bench-key-1234567890, variant: B }
storage: { path: ${join(folder, 'bench.db')} }
erp: { file: { outbox: ${join(folder, 'outbox')}, inbox: ${join(folder, 'inbox')} } }
console: { enabled: true, operatorToken: ${TOKEN} }
`,
    { mode: 0o600 },
  );
  const { config } = loadConfig({ path: configPath, env: {}, cwd: folder });
  const store = openStore({ path: config.storage.path, clock: systemClock });
  const filling = performance.now();
  fillStore(store);
  const filled = performance.now() - filling;
  const logger = pino({ enabled: false });
  const ready = { ready: true, problems: [], checks: { database: { ok: true } } };
  const plugin = consolePlugin({
    config,
    store,
    clock: systemClock,
    logger,
    handOvers: fileHandOvers(config.erp.file.format),
    daemon: () => ({ readiness: ready, lastOutage: undefined, lastAlert: undefined }),
    storage: () => storageFigures(store, undefined),
  });
  const endpoint = await startHttpEndpoint(
    { ...config.http, port: 0, token: undefined },
    {
      logger,
      liveness: () => ({ ok: true }),
      readiness: () => ready,
      inboundReadiness: () => ready,
      metrics: () => Promise.resolve({ contentType: 'text/plain', body: '' }),
      inbound: () => ({ status: 'invalid', problems: ['not in the bench'] }),
      console: plugin,
    },
  );
  return {
    url: endpoint.url,
    filled,
    close: async () => {
      await endpoint.close();
      store.close();
    },
  };
}

/** The keys searched for, one of each kind, of records spread over the database. */
function keysToSearch(): [string, string][] {
  const n = Math.floor((ORDERS * 0.73) / 5) * 5;
  return [
    ['_id', orderId(n)],
    ['salesId', salesId(n)],
    ['erpOrderNumber', erpOrderNumber(n)],
    ['customerId', customerId(4_711)],
    ['inbox file', inboxFile(n)],
    ['outbox file', `${orderId(n)}_2024-06-01T00-00-00.000Z.json`],
    ['job id', String(ORDERS + 3)],
    ["a key's start", salesId(n).slice(0, 8)],
    ['no such key', 'nothing-like-it-anywhere'],
  ];
}

async function timings(url: string, print: (line: string) => void) {
  let worst = 0;
  for (const [kind, key] of keysToSearch()) {
    await searchToStory(url, key);
    const times: number[] = [];
    for (let round = 0; round < ROUNDS; round += 1) times.push(await searchToStory(url, key));
    const p95 = percentile(times, 0.95);
    worst = Math.max(worst, p95);
    print(
      `search → story by ${kind.padEnd(15)} median ${millis(median(times))}, p95 ${millis(p95)}`,
    );
  }
  return worst;
}

/** Every page once: its bytes, and what it would ask for from elsewhere. */
async function pages(url: string, print: (line: string) => void) {
  const story = `/console/record/singleOrder/${orderId(5)}`;
  const paths = [
    '/console/login',
    '/console',
    `/console/search?q=${encodeURIComponent(salesId(1).slice(0, 6))}`,
    story,
    '/console/dead',
    '/console/dead/confirm?action=retry',
    '/console/pauses',
    '/console/style.css',
    '/console/icon.svg',
  ];
  let heaviest = 0;
  const external: string[] = [];
  let withoutCsp = 0;
  for (const path of paths) {
    const page = await get(url, path);
    const bytes = Buffer.byteLength(page.body);
    heaviest = Math.max(heaviest, bytes);
    external.push(...externalReferences(page.body).map((target) => `${path}: ${target}`));
    if (page.csp?.startsWith("default-src 'none'") !== true) withoutCsp += 1;
    print(
      `page ${path.split('?')[0]?.padEnd(36)} ${count(bytes).padStart(7)} bytes (HTTP ${page.status})`,
    );
  }
  return { heaviest, external, withoutCsp };
}

function figures(worst: number, weights: Awaited<ReturnType<typeof pages>>): TargetFigure[] {
  return [
    {
      figure: `console search → story, ${count(LEDGER_ROWS)} ledger rows (p95, slowest key kind)`,
      measured: millis(worst),
      target: `< ${TARGET_MS} ms`,
      met: worst < TARGET_MS,
    },
    {
      figure: 'console page weight (heaviest page)',
      measured: `${(weights.heaviest / 1024).toFixed(1)} KiB`,
      target: '< 100 KiB',
      met: weights.heaviest < TARGET_BYTES,
    },
    {
      figure: 'console requests elsewhere (every page; CSP default-src none)',
      measured: `${weights.external.length} (${weights.withoutCsp} pages without the CSP)`,
      target: '0',
      met: weights.external.length === 0 && weights.withoutCsp === 0,
    },
  ];
}

export const consoleBenchmark: Benchmark = {
  name: 'console',
  description: `the console: search → story with ${count(LEDGER_ROWS)} ledger rows, page weight, no external requests`,
  run: (print, note) =>
    withTempFolder(async (folder) => {
      const started = await startConsole(folder);
      try {
        print(
          `filled ${count(LEDGER_ROWS)} ledger rows, ${count(ORDERS)} orders in ${seconds(started.filled)}`,
        );
        const worst = await timings(started.url, print);
        const weights = await pages(started.url, print);
        for (const line of weights.external) print(`asks elsewhere: ${line}`);
        for (const figure of figures(worst, weights)) note(figure);
        return `search → story p95 ${millis(worst)} at worst; heaviest page ${count(weights.heaviest)} bytes; ${weights.external.length} external requests`;
      } finally {
        await started.close();
      }
    }),
};
