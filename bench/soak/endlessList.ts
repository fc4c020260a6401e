/**
 * Soak: a platform that streams the article list without end, met by `sync --once` with the
 * default bounds. Reports how long the pull ran before its bound cut it, how long the pass took,
 * its exit code and the size of the data folder after it; the bounds promise a cut within 3
 * minutes and under 1 GiB of data.
 * Run alone: `npx tsx bench/soak/endlessList.ts` (the simulator runs in a child process).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { startSimulatorProcess } from '../support/simulatorProcess.js';
import { withTempFolder } from '../support/tempFolder.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** By URL: the pass runs in a temp folder, where `tsx` alone does not resolve. */
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;
const GIVE_UP_MS = 10 * 60_000;
const PROMISED_MS = 3 * 60_000;
const PROMISED_BYTES = 1024 ** 3;

function folderBytes(folder: string): number {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(folder, entry.name)).size, 0);
}

interface Pass {
  code: number | null;
  ms: number;
  output: string;
}

/** `homecare-sync sync --once` from the sources, as `npm run dev` would start it. */
function syncOnce(configPath: string, cwd: string): Promise<Pass> {
  const started = Date.now();
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, join(ROOT, 'src/cli/main.ts'), 'sync', '--once', '-c', configPath],
    { cwd, env: { PATH: process.env['PATH'] ?? '' }, timeout: GIVE_UP_MS },
  );
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, ms: Date.now() - started, output }));
  });
}

/** The log line of the pull the bound stopped: how long that pull ran, and its message. */
function boundLine(output: string): string {
  const line = output.split('\n').find((text) => text.includes('"LIST_BOUND"'));
  if (line === undefined)
    return `no bound was reported; the output began: ${output.slice(0, 1000)}`;
  const { msg, durationMs } = JSON.parse(line) as { msg: string; durationMs: number };
  return `the pull was cut after ${(durationMs / 1000).toFixed(1)} s: ${msg}`;
}

async function main(): Promise<void> {
  const simulator = await startSimulatorProcess();
  try {
    // The first article list (status=created) never ends; the other two answer as usual.
    await simulator.control('POST', '/faults', { path: '/article', endless: true, times: 1 });
    await withTempFolder(async (folder) => {
      const data = join(folder, 'data');
      mkdirSync(data);
      const configPath = join(folder, 'homecare-sync.yaml');
      const config = {
        platform: { baseUrl: simulator.url, apiKey: 'demo-key', variant: 'B' },
        storage: { path: join(data, 'homecare-sync.db') },
        // One batch file per resource and run: the hand-over of what the pull committed before
        // its cut takes seconds, not the minutes of 320,000 single files.
        erp: {
          adapter: 'file',
          file: { outbox: join(folder, 'out'), inbox: join(folder, 'in'), format: 'ndjson' },
        },
        http: { enabled: false },
        log: { level: 'warn', format: 'json' },
      };
      writeFileSync(configPath, stringify(config), { mode: 0o600 });
      const pass = await syncOnce(configPath, folder);
      const bytes = folderBytes(data);
      console.log('endless article list (status=created), default bounds, sync --once:');
      console.log(
        `  ended after ${(pass.ms / 1000).toFixed(1)} s (promised ≤ ${PROMISED_MS / 1000} s), exit ${String(pass.code)}`,
      );
      console.log(
        `  data folder ${(bytes / 1024 ** 2).toFixed(0)} MiB (promised < ${PROMISED_BYTES / 1024 ** 2} MiB)`,
      );
      console.log(`  ${boundLine(pass.output)}`);
    });
  } finally {
    await simulator.stop();
  }
}

await main();
