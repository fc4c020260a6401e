/**
 * Soak: the database's disk full for SOAK_DISK_FULL_MINUTES (default 5) under a running daemon.
 * The database lives on a 64 MB tmpfs filled up to ~1 MiB before `run` starts; every resource is
 * pulled every 10 s, so the daemon meets the full disk again and again. Reports the error lines it
 * printed while full (the target: one when it starts, one a minute), whether it said the disk can
 * be written again, /readyz's storage check while full and after, and whether everything the
 * platform serves reached the outbox once the filler is gone (against a clean `sync --once`).
 * Run alone, as root (it mounts): `npx tsx bench/soak/diskFull.ts`; exits 2 when it cannot mount.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, statfsSync, writeFileSync } from 'node:fs';
import { freePort } from '../support/freePort.js';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { stringify } from 'yaml';
import { contractFor } from '../../src/contract/index.js';
import { pullTargets } from '../../src/pull/targets.js';
import { startSimulatorProcess, type SimulatorProcess } from '../support/simulatorProcess.js';
import { stopChild } from '../support/stopChild.js';
import { withTempFolder } from '../support/tempFolder.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const MAIN = join(ROOT, 'src/cli/main.ts');
/** By URL: the daemon runs in a temp folder, where `tsx` alone does not resolve. */
const TSX_LOADER = pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href;

const FULL_MINUTES = Number(process.env['SOAK_DISK_FULL_MINUTES'] ?? '5');
/** As test/integration/cli/diskFull.test.ts: larger than the WAL grows before a checkpoint (40 MB). */
const DISK_SIZE = '64m';
const LEFT_FREE = 1024 * 1024;
const EVERY_TEN_SECONDS = '*/10 * * * * *';
const READYZ_EVERY_MS = 5_000;
/** Start-up through tsx takes seconds; only a daemon that will never answer waits this long. */
const START_BOUND_MS = 60_000;
const RECOVERY_BOUND_MS = 3 * 60_000;
const RECOVERY_STEP_MS = 5_000;
/** One `status --json` or `sync --once` child; a hung one must not hang the soak. */
const CHILD_BOUND_MS = 5 * 60_000;
const STOP_BOUND_MS = 5_000;

/**
 * What must not outlive the soak when it is interrupted (Ctrl-C, a kill): the daemon, the mount.
 * The `finally` blocks do it on every other way out; a signal skips them.
 */
const onInterrupt = new Set<() => void>();

function cleanUpOnSignals(): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.error(`${signal}: stopping the daemon and unmounting`);
      for (const undo of [...onInterrupt].reverse()) {
        try {
          undo();
        } catch (error) {
          console.error(error);
        }
      }
      process.exit(130);
    });
  }
}

// ---- the disk ------------------------------------------------------------------------------

/** Mounts a DISK_SIZE tmpfs on a fresh temp folder; throws with mount's own words when it cannot. */
function mountSmallDisk(): string {
  const folder = mkdtempSync(join(tmpdir(), 'homecare-sync-soak-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_SIZE},mode=0700`, 'tmpfs', folder], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return folder;
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(stderr || (error instanceof Error ? error.message : String(error)));
  }
}

/** Unmounts (lazily when still busy: a daemon killed late may hold the file) and removes it. */
function unmount(folder: string): void {
  try {
    execFileSync('umount', [folder], { stdio: 'ignore' });
  } catch {
    execFileSync('umount', ['-l', folder], { stdio: 'ignore' });
  }
  rmSync(folder, { recursive: true, force: true });
}

/** Fills `folder`'s disk with one file until `leave` bytes are free; returns its path. */
function fill(folder: string, leave: number): string {
  const { bavail, bsize } = statfsSync(folder);
  const filler = join(folder, 'filler');
  writeFileSync(filler, Buffer.alloc(Math.max(0, bavail * bsize - leave)));
  return filler;
}

function freeBytes(folder: string): number {
  const { bavail, bsize } = statfsSync(folder);
  return bavail * bsize;
}

// ---- the config ----------------------------------------------------------------------------

/** Every list resource of variant B (the simulator's), each pulled every 10 s. */
function everyResourceOften(): Record<string, { schedule: string }> {
  const resources = new Set(pullTargets(contractFor('B')).map((target) => target.resource));
  return Object.fromEntries([...resources].map((name) => [name, { schedule: EVERY_TEN_SECONDS }]));
}

interface Setup {
  folder: string;
  database: string;
  platformUrl: string;
  /** Undefined: the endpoint is off (the clean reference pass). */
  http?: { port: number; token: string };
}

/** The config: the file adapter's folders under `folder`, the database where told. */
function writeConfig(setup: Setup): string {
  const settings = {
    platform: { baseUrl: setup.platformUrl, apiKey: 'demo-key', variant: 'B' },
    storage: { path: setup.database },
    sync: { jitterSeconds: 0, resources: everyResourceOften() },
    erp: {
      adapter: 'file',
      file: { outbox: join(setup.folder, 'outbox'), inbox: join(setup.folder, 'inbox') },
    },
    http:
      setup.http === undefined
        ? { enabled: false }
        : { enabled: true, host: '127.0.0.1', port: setup.http.port, token: setup.http.token },
    log: { level: 'info', format: 'json' },
  };
  const path = join(setup.folder, 'homecare-sync.yaml');
  writeFileSync(path, stringify(settings), { mode: 0o600 });
  return path;
}

// ---- the daemon ----------------------------------------------------------------------------

interface LogLine {
  /** When the soak read it (ms since the daemon started), to tell "while full" from "after". */
  atMs: number;
  level: string;
  msg: string;
  code: string | undefined;
}

interface Daemon {
  lines: LogLine[];
  ended(): string | undefined;
  stop(): Promise<string>;
}

/** The line as the daemon logged it (JSON); a line that is not JSON counts as level "other". */
function parsed(line: string, atMs: number): LogLine {
  try {
    const entry = JSON.parse(line) as { level?: unknown; msg?: unknown; code?: unknown } | null;
    return {
      atMs,
      level: typeof entry?.level === 'string' ? entry.level : 'other',
      msg: typeof entry?.msg === 'string' ? entry.msg : line,
      code: typeof entry?.code === 'string' ? entry.code : undefined,
    };
  } catch {
    return { atMs, level: 'other', msg: line, code: undefined };
  }
}

/** Collects a child's output line by line. */
function collectLines(child: ChildProcess, into: (line: string) => void): void {
  let partial = '';
  const take = (chunk: string): void => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    lines.filter((line) => line.trim() !== '').forEach(into);
  };
  child.stdout?.setEncoding('utf8').on('data', take);
  child.stderr?.setEncoding('utf8').on('data', take);
}

/** Stops the daemon (SIGTERM, then SIGKILL after STOP_BOUND_MS) and says how it ended. */
async function stopDaemon(child: ChildProcess, exited: Promise<void>): Promise<string> {
  if (child.exitCode !== null || child.signalCode !== null) return 'had exited';
  const { killed } = await stopChild(child, exited, STOP_BOUND_MS);
  return killed ? 'SIGKILL after SIGTERM went unheeded' : `exited ${String(child.exitCode)}`;
}

/** `homecare-sync run` from the sources through the tsx loader, as bench/endpoint/daemon.ts. */
function spawnDaemon(config: string, cwd: string): Daemon {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, 'run', '-c', config], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  collectLines(child, (line) => lines.push(parsed(line, performance.now() - started)));
  let ended: string | undefined;
  const kill = (): void => void child.kill('SIGKILL');
  onInterrupt.add(kill);
  const exited = new Promise<void>((resolve) =>
    child.on('close', (code, signal) => {
      ended = String(code ?? signal ?? 'unknown');
      onInterrupt.delete(kill);
      resolve();
    }),
  );
  return { lines, ended: () => ended, stop: () => stopDaemon(child, exited) };
}

// ---- the probes ----------------------------------------------------------------------------

type Checks = Record<string, { ok: boolean; problem?: string }>;

/** /readyz with the token (so the problems are the detailed ones); undefined when no answer. */
async function readiness(port: number, token: string): Promise<Checks | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(2_000),
    });
    return ((await response.json()) as { checks?: Checks }).checks;
  } catch {
    return undefined;
  }
}

async function healthy(port: number): Promise<boolean> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/healthz`, {
      signal: AbortSignal.timeout(1_000),
    });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function untilHealthy(daemon: Daemon, port: number): Promise<void> {
  const deadline = performance.now() + START_BOUND_MS;
  while (performance.now() < deadline) {
    const ended = daemon.ended();
    if (ended !== undefined) throw new Error(`the daemon exited (${ended}) before /healthz`);
    if (await healthy(port)) return;
    await sleep(200);
  }
  throw new Error(`/healthz did not answer within ${START_BOUND_MS / 1000} s`);
}

interface Cli {
  code: number | null;
  stdout: string;
  output: string;
}

/** One `homecare-sync <args>` from the sources, bounded by CHILD_BOUND_MS. */
function cli(args: readonly string[], cwd: string): Promise<Cli> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, ...args], {
    cwd,
    env: { PATH: process.env['PATH'] ?? '' },
    timeout: CHILD_BOUND_MS,
  });
  let stdout = '';
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    output += chunk;
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, output }));
  });
}

interface Status {
  checkpoints: { resource: string; filter: string; lastRun?: { ok?: boolean; fetched?: number } }[];
  delivery: { undelivered: number };
}

async function status(config: string, cwd: string): Promise<Status | undefined> {
  const answer = await cli(['status', '--json', '-c', config], cwd);
  try {
    return JSON.parse(answer.stdout) as Status;
  } catch {
    return undefined;
  }
}

const allPulled = (state: Status): boolean =>
  state.checkpoints.length > 0 && state.checkpoints.every((c) => c.lastRun?.ok === true);

/**
 * Files the file adapter handed over, relative to the outbox (one folder per resource): its temp
 * files and its readiness probe (".name…") are not.
 */
function outboxFiles(folder: string): string[] {
  const outbox = join(folder, 'outbox');
  try {
    return readdirSync(outbox, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
      .map((entry) => relative(outbox, join(entry.parentPath, entry.name)));
  } catch {
    return [];
  }
}

/**
 * "singleOrder/<id>": the record a file holds. A name is `<id>_<version>.<ext>` (the id's own
 * "_" escaped, src/erp/outbound/file/names.ts), so a record's later versions and companions count once.
 */
function recordOf(file: string): string {
  const name = basename(file);
  const cut = name.lastIndexOf('_');
  return join(dirname(file), cut < 0 ? name : name.slice(0, cut));
}

interface Outbox {
  files: number;
  /** Distinct records by resource folder. */
  records: Map<string, number>;
}

/**
 * Records are counted per resource, not matched by id: some of the simulator's ids hold the
 * time it was seeded at (patientHistory: "patient/<id>/<time>/…"), so the clean pass's simulator,
 * seeded minutes later, names the same records differently.
 */
function outboxOf(folder: string): Outbox {
  const files = outboxFiles(folder);
  const records = new Map<string, number>();
  for (const record of new Set(files.map(recordOf))) {
    const resource = dirname(record);
    records.set(resource, (records.get(resource) ?? 0) + 1);
  }
  return { files: files.length, records };
}

const recordCount = (outbox: Outbox): number =>
  [...outbox.records.values()].reduce((sum, n) => sum + n, 0);

// ---- the phases ----------------------------------------------------------------------------

interface FullPhase {
  minutes: number;
  readyz: {
    probes: number;
    storageFailing: number;
    unanswered: number;
    firstProblem: string | undefined;
  };
  /** When the filler went, in the daemon's time (LogLine.atMs). */
  clearedAtMs: number;
}

/** Keeps the disk full for FULL_MINUTES, asking /readyz every READYZ_EVERY_MS. */
async function fullPhase(daemon: Daemon, port: number, token: string, started: number) {
  const readyz: FullPhase['readyz'] = {
    probes: 0,
    storageFailing: 0,
    unanswered: 0,
    firstProblem: undefined,
  };
  const until = performance.now() + FULL_MINUTES * 60_000;
  const bound = Math.ceil((FULL_MINUTES * 60_000) / READYZ_EVERY_MS) + 1;
  for (let i = 0; i < bound && performance.now() < until; i += 1) {
    if (daemon.ended() !== undefined) throw new Error(`the daemon exited (${daemon.ended()})`);
    const storage = (await readiness(port, token))?.['storage'];
    readyz.probes += 1;
    if (storage === undefined) readyz.unanswered += 1;
    else if (!storage.ok) {
      readyz.storageFailing += 1;
      readyz.firstProblem ??= storage.problem;
    }
    await sleep(Math.max(0, Math.min(READYZ_EVERY_MS, until - performance.now())));
  }
  return { readyz, clearedAtMs: performance.now() - started };
}

interface Recovery {
  afterMs: number | undefined;
  status: Status | undefined;
  storageOk: boolean;
  saidBack: boolean;
}

const BACK = 'can be written again';

/**
 * Polls until every last run is ok, nothing is undelivered, /readyz storage is ok and the daemon
 * said the disk can be written again; bounded by RECOVERY_BOUND_MS.
 */
async function recoveryPhase(daemon: Daemon, run: RunSetup): Promise<Recovery> {
  const started = performance.now();
  let last: Recovery = { afterMs: undefined, status: undefined, storageOk: false, saidBack: false };
  const steps = Math.ceil(RECOVERY_BOUND_MS / RECOVERY_STEP_MS);
  for (let i = 0; i < steps && performance.now() - started < RECOVERY_BOUND_MS; i += 1) {
    const state = await status(run.config, run.folder);
    const storage = (await readiness(run.port, run.token))?.['storage'];
    const saidBack = daemon.lines.some((line) => line.msg.includes(BACK));
    last = { afterMs: undefined, status: state, storageOk: storage?.ok === true, saidBack };
    const done = state !== undefined && allPulled(state) && state.delivery.undelivered === 0;
    if (done && last.storageOk && saidBack)
      return { ...last, afterMs: performance.now() - started };
    await sleep(RECOVERY_STEP_MS);
  }
  return last;
}

interface Reference {
  outbox: Outbox;
  fetched: number;
  code: number | null;
}

/** A clean `sync --once` against a fresh simulator (same seed): what "nothing lost" means. */
async function referencePass(): Promise<Reference> {
  const simulator = await startSimulatorProcess();
  try {
    return await withTempFolder(async (folder) => {
      const config = writeConfig({
        folder,
        database: join(folder, 'sync.db'),
        platformUrl: simulator.url,
      });
      const pass = await cli(['sync', '--once', '-c', config], folder);
      const state = await status(config, folder);
      const fetched = (state?.checkpoints ?? []).reduce((n, c) => n + (c.lastRun?.fetched ?? 0), 0);
      return { outbox: outboxOf(folder), fetched, code: pass.code };
    });
  } finally {
    await simulator.stop();
  }
}

// ---- the report ----------------------------------------------------------------------------

interface RunSetup {
  folder: string;
  config: string;
  port: number;
  token: string;
}

const mentionsFullDisk = (line: LogLine): boolean =>
  line.code === 'STORE_FULL' || /disk|full|ENOSPC|SQLITE_FULL/i.test(line.msg);

const isError = (line: LogLine): boolean => line.level === 'error' || line.level === 'fatal';

function errorFigures(lines: readonly LogLine[], clearedAtMs: number) {
  const whileFull = lines.filter((line) => line.atMs <= clearedAtMs);
  const errors = whileFull.filter(isError);
  const full = errors.filter(mentionsFullDisk);
  const other = errors.filter((line) => !mentionsFullDisk(line));
  const warns = whileFull.filter((line) => line.level === 'warn');
  const after = lines.filter((line) => line.atMs > clearedAtMs && isError(line));
  return { errors, full, other, warns, after };
}

/** A message with its ids, numbers and times left out, so that alike lines count as one. */
const shape = (msg: string): string =>
  msg
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')
    .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z?/g, '<time>')
    .replace(/\d+/g, '<n>')
    .slice(0, 400);

/** The distinct messages of `lines`, counted, for a look at what an unexpected line was. */
function distinct(lines: readonly LogLine[]): string {
  const counts = new Map<string, number>();
  for (const line of lines) counts.set(shape(line.msg), (counts.get(shape(line.msg)) ?? 0) + 1);
  return [...counts].map(([msg, n]) => `${n}× ${msg}`).join('\n    ');
}

type ErrorFigures = ReturnType<typeof errorFigures>;

function printLines(figures: ErrorFigures, target: number): void {
  console.log(
    `  error lines while full: ${figures.errors.length}, ${figures.full.length} about the full disk ` +
      `(target ≤ ${target}: one at the start, one a minute); other errors ${figures.other.length}; warn lines ${figures.warns.length}`,
  );
  if (figures.other.length > 0) console.log(`  other errors:\n    ${distinct(figures.other)}`);
  if (figures.warns.length > 0) console.log(`  warn lines:\n    ${distinct(figures.warns)}`);
  console.log(`  error lines after the filler went: ${figures.after.length}`);
  if (figures.after.length > 0) console.log(`  after:\n    ${distinct(figures.after)}`);
}

function printReadiness(full: FullPhase, back: Recovery): void {
  const { readyz } = full;
  console.log(`  "${BACK}" info line: ${back.saidBack ? 'yes' : 'no'}`);
  console.log(
    `  /readyz storage while full: not ok in ${readyz.storageFailing}/${readyz.probes} probes` +
      ` (${readyz.unanswered} unanswered); first problem: ${readyz.firstProblem ?? 'none'}`,
  );
  console.log(`  /readyz storage after: ${back.storageOk ? 'ok' : 'NOT ok'}`);
  const pulled =
    back.status === undefined ? 'no status' : allPulled(back.status) ? 'all ok' : 'NOT all ok';
  const recovered =
    back.afterMs === undefined
      ? `not within ${RECOVERY_BOUND_MS / 1000} s`
      : `${(back.afterMs / 1000).toFixed(0)} s after the filler went`;
  console.log(
    `  recovery: ${recovered}; last runs ${pulled}, undelivered ${back.status?.delivery.undelivered ?? 'n/a'}`,
  );
}

/** Prints the outbox against the clean pass; returns the resources with fewer records. */
function printOutbox(outbox: Outbox, ref: Reference): string[] {
  const short = [...ref.outbox.records]
    .filter(([resource, n]) => (outbox.records.get(resource) ?? 0) < n)
    .map(([resource, n]) => `${resource} ${outbox.records.get(resource) ?? 0} of ${n}`);
  console.log(
    `  outbox: ${outbox.files} files of ${recordCount(outbox)} records; a clean sync --once of a fresh ` +
      `simulator (same seed): ${ref.outbox.files} files of ${recordCount(ref.outbox)} records, ` +
      `${ref.fetched} records fetched (exit ${String(ref.code)})`,
  );
  console.log(
    `  resources with fewer records than the clean pass: ${short.length === 0 ? 'none' : short.join(', ')}`,
  );
  return short;
}

function report(
  full: FullPhase,
  lines: readonly LogLine[],
  back: Recovery,
  ref: Reference,
  outbox: Outbox,
): boolean {
  const figures = errorFigures(lines, full.clearedAtMs);
  const target = 1 + Math.floor(full.minutes);
  console.log(`disk full for ${full.minutes} min (database on a ${DISK_SIZE} tmpfs, ~1 MiB left):`);
  printLines(figures, target);
  printReadiness(full, back);
  const short = printOutbox(outbox, ref);
  const ok =
    figures.full.length >= 1 &&
    figures.full.length <= target &&
    figures.other.length === 0 &&
    back.saidBack &&
    back.storageOk &&
    full.readyz.storageFailing > 0 &&
    back.afterMs !== undefined &&
    recordCount(ref.outbox) > 0 &&
    short.length === 0;
  console.log(`verdict: ${ok ? 'PASS' : 'FAIL'}`);
  return ok;
}

// ---- the soak ------------------------------------------------------------------------------

async function soak(disk: string, folder: string, simulator: SimulatorProcess): Promise<boolean> {
  const port = await freePort();
  // 32 characters, as the brief of the endpoint asks of a real token.
  const token = randomBytes(16).toString('hex');
  const database = join(disk, 'sync.db');
  const config = writeConfig({
    folder,
    database,
    platformUrl: simulator.url,
    http: { port, token },
  });
  const filler = fill(disk, LEFT_FREE);
  console.log(`tmpfs ${disk}: ${(freeBytes(disk) / 1024).toFixed(0)} KiB free after the filler`);
  const started = performance.now();
  const daemon = spawnDaemon(config, folder);
  try {
    await untilHealthy(daemon, port);
    const full = await fullPhase(daemon, port, token, started);
    rmSync(filler);
    const run = { folder, config, port, token };
    const back = await recoveryPhase(daemon, run);
    const outbox = outboxOf(folder);
    const ref = await referencePass();
    return report({ ...full, minutes: FULL_MINUTES }, daemon.lines, back, ref, outbox);
  } finally {
    console.log(`daemon: ${await daemon.stop()}`);
  }
}

async function main(): Promise<number> {
  if (!(Number.isFinite(FULL_MINUTES) && FULL_MINUTES > 0)) {
    console.error(`SOAK_DISK_FULL_MINUTES must be a positive number, got ${FULL_MINUTES}`);
    return 2;
  }
  let disk: string;
  try {
    disk = mountSmallDisk();
  } catch (error) {
    console.error(
      `cannot mount a tmpfs (needs root or CAP_SYS_ADMIN): ${error instanceof Error ? error.message : String(error)}`,
    );
    return 2;
  }
  const undo = (): void => unmount(disk);
  onInterrupt.add(undo);
  try {
    const simulator = await startSimulatorProcess();
    try {
      return (await withTempFolder((folder) => soak(disk, folder, simulator))) ? 0 : 1;
    } finally {
      await simulator.stop();
    }
  } finally {
    onInterrupt.delete(undo);
    unmount(disk);
  }
}

cleanUpOnSignals();
process.exitCode = await main();
