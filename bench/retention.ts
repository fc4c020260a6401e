/**
 * `npm run bench -- retention`: a simulated year of a busy supplier (issue #28). The real store and
 * the real retention pass (src/housekeeping/retention/pass.ts prunePass: database in batches,
 * incremental vacuum, WAL checkpoint, inbox archive) run on a database on disk; only the clock is
 * fake, moved an hour per step. Each simulated day: ORDERS_PER_DAY orders pulled (the real pull
 * commit, which queues their hand-over), handed over and acknowledged, the ERP's status push for
 * each (an inbox message, its archived file, a push-back job, our own write) and its echo pulled,
 * orders archived a few days later; patients and patient notes beside them. Prints database, WAL
 * and archive bytes as the days pass, the growth per 10,000 orders once the retention window is
 * full, and the p95 of one order's cycle with a pruning pass running beside it and without.
 *
 * Scale: BENCH_RETENTION_DAYS (default 70: twice the window of 5 + 30 days, so the flat part
 * shows) and BENCH_RETENTION_ORDERS_PER_DAY (default 2,500, a quarter of the 10,000, so
 * a run takes minutes on 2 cores; the bytes per 10,000 orders do not depend on the rate). The
 * year at 10,000 a day takes about an hour.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import { prunePass } from '../src/housekeeping/index.js';
import { folderBytes } from '../src/readModels/index.js';
import { retentionSchema, type RetentionConfig } from '../src/config/retentionSchema.js';
import type { ResourceName } from '../src/contract/index.js';
import {
  claimJobs,
  completeJob,
  fileBytes,
  insertInboxMessage,
  insertJob,
  markDelivered,
  newBatch,
  openStore,
  recordOwnWrite,
  setAckState,
  settleInboxMessage,
  transaction,
  type Store,
} from '../src/store/index.js';
import { archivalLedgerId } from '../src/queue/index.js';
import { sqlitePullStore } from '../src/pull/pullStore.js';
import type { PulledRecord, PullStore } from '../src/pull/puller.js';
import { FakeClock } from '../test/support/fakeClock.js';
import type { Benchmark } from './support/benchmark.js';
import { count, mib, millis, percentile } from './support/format.js';
import { withTempFolder } from './support/tempFolder.js';

const HOUR_MS = 3_600_000;
const DAYS = Number(process.env['BENCH_RETENTION_DAYS'] ?? 70);
const ORDERS_PER_DAY = Number(process.env['BENCH_RETENTION_ORDERS_PER_DAY'] ?? 2_500);
/** An order is archived on the platform this many days after it was created (delivered). */
const ARCHIVED_AFTER_DAYS = 5;
/** Rows of one commit: the pull's default page, and as many hand-overs. */
const CHUNK = 500;
/** Order cycles timed per round, with pruning and without; rounds alternate the two. */
const TIMED_CYCLES = 400;
const ROUNDS = 3;
const PRINT_EVERY_DAYS = Number(process.env['BENCH_RETENTION_PRINT_EVERY'] ?? 10);

/**
 * The config's defaults (config/retentionSchema.ts): 30 days each, batches of 500 rows
 * (BENCH_RETENTION_BATCH sets another, to weigh pruning's batches against an order's wait).
 */
const RETENTION: RetentionConfig = retentionSchema.parse({
  batchSize: Number(process.env['BENCH_RETENTION_BATCH'] ?? 500),
  // The config keeps the keys of ended orders a year (365); the fewest it allows here, so that
  // the run shows where the size levels off without simulating the year.
  endedKeys: Number(process.env['BENCH_RETENTION_KEYS_DAYS'] ?? 31),
});
interface Sim {
  store: Store;
  pulls: PullStore;
  clock: FakeClock;
  inbox: string;
  orders: number;
}

/**
 * Orders are created on the hour and change later in the hour (createdAt stays): the version
 * tells the creation from its changes, as the Created status does for the daemon.
 */
const isCreation = (version: string): boolean => version.endsWith(':00:00.000Z');

const orderId = (n: number): string => `o-${String(n).padStart(8, '0')}`;

/** A single order as the platform lists it: about 1.4 KB of JSON, patient data included. */
function order(n: number, at: string, fields: Record<string, unknown> = {}): PulledRecord {
  const id = orderId(n);
  const record = {
    _id: id,
    timestamp: at,
    createdAt: at,
    updatedAt: at,
    status: 0,
    orderType: 'single',
    patientId: `p-${n % 50_000}`,
    customerId: `K${100_000 + (n % 50_000)}`,
    deliveryAddress: {
      name: `Erika Mustermann-${n}`,
      street: `Hauptstraße ${n % 200}`,
      postalCode: '10115',
      city: 'Berlin',
      phone: `+49 30 ${1_000_000 + n}`,
    },
    items: [1, 2, 3].map((line) => ({
      _id: `${id}-l${line}`,
      articleId: `a-${(n * line) % 4000}`,
      articleCustomerNumber: `ART-${(n * line) % 4000}`,
      quantity: line * 2,
      unit: 'Stück',
      note: 'Bitte beim Nachbarn abgeben, falls niemand öffnet.',
    })),
    note: 'Lieferung vormittags; Patientin ist gehbehindert, bitte klingeln und warten.',
    ...fields,
  };
  return { id, version: at, record, json: JSON.stringify(record) };
}

/** A patient or a patient note: master data pulled beside the orders. */
function other(resource: 'patient' | 'patientNote', n: number, at: string): PulledRecord {
  const id = `${resource}-${n}`;
  const record = {
    _id: id,
    timestamp: at,
    updatedAt: at,
    lastName: `Mustermann-${n}`,
    firstName: 'Erika',
    birthday: '1941-05-02',
    text: resource === 'patientNote' ? 'Rückruf erbeten wegen Folgeverordnung. '.repeat(4) : '',
  };
  return { id, version: at, record, json: JSON.stringify(record) };
}

/** The real pull commit: ledger, mirror, run row and the queued hand-overs, per page. */
function pull(sim: Sim, resource: ResourceName, records: readonly PulledRecord[]): void {
  const at = sim.clock.now().toISOString();
  for (let from = 0; from < records.length; from += CHUNK) {
    const page = records.slice(from, from + CHUNK);
    const end = {
      outcome: () => ({
        resource,
        filter: '',
        mode: 'incremental' as const,
        since: at,
        startedAt: at,
        finishedAt: at,
        fetched: page.length,
        fresh: page.length,
        repeats: 0,
        quarantined: 0,
        watermark: at,
        ok: true,
      }),
    };
    sim.pulls.commitBatch(
      { target: { resource, filter: '' }, mode: 'incremental', startedAt: at },
      page,
      [],
      end,
    );
  }
}

interface ClaimedJob {
  id: number;
  kind: string;
  payload: Record<string, unknown>;
}

/**
 * The queue worker's part, without an ERP or a platform: the pending jobs in commits of CHUNK,
 * each claimed in a batch and completed; a hand-over marks its version delivered, and an order's
 * first one queues its acknowledgement (done at the next drain).
 */
function drain(sim: Sim, keys?: readonly string[]): void {
  const { store } = sim;
  const lease = new Date(sim.clock.now().getTime() + HOUR_MS).toISOString();
  for (;;) {
    const done = transaction(store, () => {
      const ids = pendingJobs(store, keys);
      if (ids.length === 0) return 0;
      for (const job of claimJobs(store, ids, lease, newBatch(store, 'deliver.singleOrder')))
        settle(store, job);
      return ids.length;
    });
    if (done < CHUNK) return;
  }
}

function pendingJobs(store: Store, keys: readonly string[] | undefined): number[] {
  const sql =
    keys === undefined
      ? "SELECT id FROM queue INDEXED BY queue_state WHERE state = 'pending' ORDER BY id LIMIT ?"
      : "SELECT id FROM queue WHERE state = 'pending' AND entity_key IN (SELECT value FROM json_each(?)) ORDER BY id LIMIT ?";
  const statement = store.db.prepare(sql).pluck();
  return (
    keys === undefined ? statement.all(CHUNK) : statement.all(JSON.stringify(keys), CHUNK)
  ) as number[];
}

function settle(store: Store, job: ClaimedJob): void {
  completeJob(store, job.id);
  const { resource, id, version } = job.payload as Record<string, string>;
  if (job.kind.startsWith('deliver.') && resource && id && version) {
    // An archival event is its own ledger row, as the delivery handler marks it (deliver.ts).
    const ledgerId = job.payload['archival'] === true ? archivalLedgerId(id) : id;
    markDelivered(store, resource, ledgerId, version);
    // The version an order was created with is acknowledged (Created → Transmitted).
    if (job.kind === 'deliver.singleOrder' && isCreation(version))
      acknowledge(store, resource, id, version);
  }
}

function acknowledge(store: Store, resource: string, id: string, version: string): void {
  setAckState(store, resource, id, version, 'queued');
  insertJob(store, {
    kind: 'ack.singleOrder',
    entityKey: `${resource}:${id}`,
    payload: { resource, id, version, status: 1 },
    idempotencyKey: `ack:${id}:${version}`,
    supersedes: false,
  });
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The ERP's status answers for orders `from`..`to`: one file per hour into the inbox's archive
 * (as the file inbox leaves it), an inbox message, a push-back job done and our write's
 * fingerprint per order; then their echo pulled back (status 3).
 */
function statusPushes(sim: Sim, from: number, to: number): void {
  const { store } = sim;
  const at = sim.clock.now();
  const lines: string[] = [];
  for (let first = from; first < to; first += CHUNK) {
    transaction(store, () => {
      for (let n = first; n < Math.min(to, first + CHUNK); n += 1) {
        const body = JSON.stringify({ orderType: 'single', id: orderId(n), status: 3 });
        lines.push(body);
        const name = `status-${n}.json`;
        const message = insertInboxMessage(store, {
          kind: 'orderStatus',
          source: 'file',
          name,
          sha256: sha256(body),
          body,
          entity: `singleOrder:${orderId(n)}`,
        });
        settleInboxMessage(store, message.id, 'done');
        const job = insertJob(store, {
          kind: 'orderStatus',
          entityKey: `singleOrder:${orderId(n)}`,
          payload: { id: orderId(n), status: 3 },
          supersedes: false,
        });
        claimJobs(store, [job.id], at.toISOString(), undefined);
        completeJob(store, job.id);
        recordOwnWrite(store, 'singleOrder', orderId(n), {
          fields: ['status'],
          writtenHash: sha256(body),
          baseFields: ['status'],
          baseHash: sha256(body),
          editor: null,
        });
      }
    });
  }
  const day = join(sim.inbox, '.archive', 'orderStatus', at.toISOString().slice(0, 10));
  mkdirSync(day, { recursive: true });
  writeFileSync(join(day, `status-${at.getTime()}.ndjson`), `${lines.join('\n')}\n`);
}

/** A stamp `minutes` into the hour: a change, not a creation (see isCreation). */
const later = (at: string, minutes = 1): string =>
  new Date(Date.parse(at) + minutes * 60_000).toISOString();

/** One simulated hour: new orders, patients and notes, answers, echoes, archivals, hand-overs. */
function hour(sim: Sim, perHour: number): void {
  const at = sim.clock.now().toISOString();
  const first = sim.orders;
  sim.orders += perHour;
  const created = Array.from({ length: perHour }, (_, k) => order(first + k, at));
  pull(sim, 'singleOrder', created);
  pull(
    sim,
    'patient',
    Array.from({ length: Math.ceil(perHour / 20) }, (_, k) => other('patient', first + k, at)),
  );
  pull(
    sim,
    'patientNote',
    Array.from({ length: Math.ceil(perHour / 10) }, (_, k) => other('patientNote', first + k, at)),
  );
  drain(sim);
  // The orders of this hour a day ago get the ERP's status; those of ARCHIVED_AFTER_DAYS ago
  // are archived on the platform.
  const dayAgo = first - perHour * 24;
  if (dayAgo >= 0) {
    statusPushes(sim, dayAgo, dayAgo + perHour);
    const echoes = Array.from({ length: perHour }, (_, k) =>
      order(dayAgo + k, later(at), { status: 3 }),
    );
    pull(sim, 'singleOrder', echoes);
  }
  const ended = first - perHour * 24 * ARCHIVED_AFTER_DAYS;
  if (ended >= 0) {
    const archived = Array.from({ length: perHour }, (_, k) =>
      order(ended + k, later(at, 2), { status: 3, archived: true }),
    );
    pull(sim, 'singleOrder', archived);
  }
  drain(sim);
}

interface Sizes {
  day: number;
  orders: number;
  database: number;
  wal: number;
  archive: number;
}

async function sizes(sim: Sim, day: number): Promise<Sizes> {
  return {
    day,
    orders: sim.orders,
    database: fileBytes(sim.store.path),
    wal: fileBytes(`${sim.store.path}-wal`),
    archive: await folderBytes(join(sim.inbox, '.archive')),
  };
}

const logger = pino({ enabled: false });

async function prune(sim: Sim): Promise<void> {
  await prunePass({
    store: sim.store,
    logger,
    retention: RETENTION,
    inbox: sim.inbox,
    stopping: () => false,
  });
}

/** One order's cycle as the daemon runs it: its pull commit, its hand-over, its acknowledgement. */
function orderCycle(sim: Sim): number {
  const started = performance.now();
  const created = order(sim.orders, sim.clock.now().toISOString());
  sim.orders += 1;
  pull(sim, 'singleOrder', [created]);
  const key = [`singleOrder:${created.id}`];
  drain(sim, key);
  drain(sim, key);
  return performance.now() - started;
}

/** Order cycles one after the other, the event loop free between two (pruning runs there). */
async function timedCycles(sim: Sim): Promise<number[]> {
  const times: number[] = [];
  for (let k = 0; k < TIMED_CYCLES; k += 1) {
    times.push(orderCycle(sim));
    await nextTurn();
  }
  return times;
}

/**
 * p95 of an order's cycle without pruning and with a pass running beside it. Each round first
 * moves the clock a day, so that a day's worth of finished work is due for pruning, then times
 * cycles alone, then cycles while that pass runs (its batches take turns with the cycles).
 */
async function cycleLatency(sim: Sim, print: (line: string) => void) {
  const alone: number[] = [];
  const pruning: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (let h = 0; h < 24; h += 1) {
      sim.clock.advance(HOUR_MS);
      hour(sim, Math.max(1, Math.round(ORDERS_PER_DAY / 24)));
    }
    alone.push(...(await timedCycles(sim)));
    const pass = prune(sim);
    pruning.push(...(await timedCycles(sim)));
    await pass;
  }
  const p95 = { alone: percentile(alone, 0.95), pruning: percentile(pruning, 0.95) };
  print(
    `order cycle (pull commit, hand-over, acknowledgement; ${count(alone.length)} each): p95 ${millis(p95.alone)} without pruning, ${millis(p95.pruning)} with a pass running (${((p95.pruning / p95.alone - 1) * 100).toFixed(1)} %)`,
  );
  return p95;
}

function sizeLine(s: Sizes): string {
  return `day ${String(s.day).padStart(3)}: ${count(s.orders).padStart(9)} orders, database ${mib(s.database)}, WAL ${mib(s.wal)}, archive ${mib(s.archive)}, together ${mib(s.database + s.wal + s.archive)}`;
}

/** Growth per 10,000 orders between the first size taken with the window full and the last. */
function growthPer10k(all: readonly Sizes[]): number {
  const window = ARCHIVED_AFTER_DAYS + RETENTION.endedKeys + 1;
  const full = all.find((s) => s.day >= window + PRINT_EVERY_DAYS);
  const last = all.at(-1);
  if (full === undefined || last === undefined || last.orders === full.orders) return Number.NaN;
  const total = (s: Sizes) => s.database + s.wal + s.archive;
  return ((total(last) - total(full)) / (last.orders - full.orders)) * 10_000;
}

/** The largest tables and indexes by their pages (SQLite's dbstat), for where the bytes go. */
function tableBytes(store: Store): string {
  const rows = store.db
    .prepare(
      'SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 8',
    )
    .all() as { name: string; bytes: number }[];
  return rows.map((row) => `${row.name} ${mib(row.bytes)}`).join(', ');
}

async function simulate(folder: string, print: (line: string) => void): Promise<string> {
  const clock = new FakeClock('2026-01-01T00:00:00.000Z');
  const store = openStore({ path: join(folder, 'homecare-sync.db'), clock });
  const sim: Sim = {
    store,
    pulls: sqlitePullStore(store, () => undefined),
    clock,
    inbox: join(folder, 'inbox'),
    orders: 0,
  };
  const perHour = Math.max(1, Math.round(ORDERS_PER_DAY / 24));
  print(
    `scale: ${count(perHour * 24)} orders a day for ${DAYS} simulated days (a year is 365), retention ${RETENTION.days} days (keys of ended orders ${RETENTION.endedKeys}) in batches of ${RETENTION.batchSize}, orders archived ${ARCHIVED_AFTER_DAYS} days after creation, pruning hourly`,
  );
  const all: Sizes[] = [];
  const started = performance.now();
  try {
    for (let day = 1; day <= DAYS; day += 1) {
      for (let h = 0; h < 24; h += 1) {
        clock.advance(HOUR_MS);
        hour(sim, perHour);
        await prune(sim);
      }
      if (day % PRINT_EVERY_DAYS === 0 || day === DAYS) {
        all.push(await sizes(sim, day));
        print(
          `${sizeLine(all.at(-1) as Sizes)} [${((performance.now() - started) / 1000).toFixed(0)} s]`,
        );
      }
    }
    const per10k = growthPer10k(all);
    print(
      `after the window (${ARCHIVED_AFTER_DAYS} + ${RETENTION.endedKeys} days, retention.endedKeys): ${Number.isNaN(per10k) ? 'n/a (run more days)' : mib(per10k)} more on disk per 10,000 orders (database + WAL + archive)`,
    );
    print(`where it goes: ${tableBytes(store)}`);
    const p95 = await cycleLatency(sim, print);
    const last = all.at(-1);
    return `${mib((last?.database ?? 0) + (last?.wal ?? 0) + (last?.archive ?? 0))} after ${DAYS} days of ${count(perHour * 24)} orders; ${Number.isNaN(per10k) ? 'n/a' : mib(per10k)} per 10,000 orders after the window; order-cycle p95 ${millis(p95.alone)} / ${millis(p95.pruning)} with pruning`;
  } finally {
    store.close();
  }
}

export const retentionBenchmark: Benchmark = {
  name: 'retention',
  description: `a simulated year at a busy supplier's rate with retention on (scaled by BENCH_RETENTION_DAYS, BENCH_RETENTION_ORDERS_PER_DAY)`,
  run: (print) => withTempFolder((folder) => simulate(folder, print)),
};
