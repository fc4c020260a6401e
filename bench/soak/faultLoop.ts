/**
 * Soak: the fault loop of issue 23. Per seed and loop-suppression reading, the real simulator
 * (in this process, seeded) and the daemon's pieces (createApp + syncOnce, opened afresh for each
 * pass as each `sync --once` is a process of its own; real SQLite and files in a temp folder) run
 * `--passes` passes under faults: 30 % 5xx on GET, POST, PATCH and PUT
 * (half 503, half 500), 10 % of those requests' connections cut (half before the platform
 * processed them, half after). Before each pass platform users create and edit orders and
 * patients (control API) and the ERP drops patient, patientNote and article files into the
 * inbox, and answers the orders it was handed as an ERP does, repeating itself at random
 * (erpSide.ts: status and delivery exports over rows and files, files exported again, a bad row
 * dropped again fixed, an operator's `inbox replay`). Then the faults go, the open dead letters are resolved as their reason says
 * (look on the platform, then `queue retry` or `queue drop`), and clean passes run until one is
 * quiet. The checks, against the outbox files, the platform's records and every write it applied
 * (a hook on the simulator's record store sees each write with the client that made it, also
 * those whose answer a fault withheld):
 *
 * - every order is in the outbox, no order version twice, none of our own writes handed back;
 * - every order created on the platform is taken out of Created by exactly one write of ours,
 *   and no acknowledgement (status 1) is applied to an order no longer in Created (a second
 *   effect);
 * - no patient (customerId), article (customerNumber) or note (patient + text) twice;
 * - every ERP create and change on the platform (notes after the dead letters' resolution);
 * - every answered order with the last status and salesId the ERP meant, every parcel and
 *   delivery line once, as the ERP wrote it (erpSide.ts);
 * - every platform user's edit, in its final version, in the ERP's outbox;
 * - a last clean pass (`sync --once`) that reports ok and sends no POST, PATCH or PUT.
 *
 * `npx tsx bench/soak/faultLoop.ts [--seeds 20] [--first-seed 1] [--readings next,until-changed]
 * [--passes 6] [--one-app] [--verbose]`, or `npm run soak:faults -- <options>`
 * (SOAK_FAULT_SEEDS sets the default seed count); exits 1 naming every violation, with the
 * record's writes and outbox files, and 2 when a run itself fails.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { App } from '../../src/app/app.js';
import { syncOnce, type SyncReport } from '../../src/app/syncOnce.js';
import {
  ORDER_STATUS,
  STAMP_FIELDS,
  type ResourceName,
  type Variant,
} from '../../src/contract/index.js';
import { replayInboxMessage } from '../../src/operations/replay.js';
import { dropJob, getJob, listJobs, retryJob } from '../../src/queue/index.js';
import { supersedingKind } from '../../src/pushback/index.js';
import type { Store } from '../../src/store/index.js';
import {
  isLoopSuppression,
  startSimulator,
  type LoopSuppression,
  type RequestLogEntry,
  type RunningSimulator,
} from '../../src/simulator/index.js';
import { writeAppConfig } from '../../test/support/appConfig.js';
import { openApp } from '../support/appConfig.js';
import { SimControl } from '../../src/simulator/index.js';
import { withTempFolder } from '../support/tempFolder.js';
import { erpSide, type ErpSide, type HandedOrder } from './erpSide.js';

type Row = Record<string, unknown>;

const TENANT = 'demo';
/** The daemon's client on the simulator (demo-key). */
const OUR_CLIENT = 'erp-1';
const ORDERS = ['singleOrder', 'directOrder'] as const;
/** What the loop pulls: the orders and everything they refer to, and the ERP's written kinds. */
const PULLED: readonly ResourceName[] = [
  'patient',
  'patientNote',
  'article',
  'integratedCare',
  'singleOrder',
  'directOrder',
];
const WATCHED: readonly ResourceName[] = ['patient', 'patientNote', 'article', ...ORDERS];
const WRITES = new Set(['POST', 'PATCH', 'PUT']);
const SETTLE_BOUND = 8;
const { Created: CREATED, Transmitted: TRANSMITTED } = ORDER_STATUS;

// ---- options -------------------------------------------------------------------------------

interface Options {
  seeds: number;
  firstSeed: number;
  readings: LoopSuppression[];
  passes: number;
  variant: Variant;
  verbose: boolean;
  oneApp: boolean;
}

function options(): Options {
  const { values } = parseArgs({
    options: {
      seeds: { type: 'string', default: process.env['SOAK_FAULT_SEEDS'] ?? '20' },
      'first-seed': { type: 'string', default: '1' },
      readings: { type: 'string', default: 'next,until-changed' },
      passes: { type: 'string', default: '6' },
      variant: { type: 'string', default: 'B' },
      verbose: { type: 'boolean', default: false },
      'one-app': { type: 'boolean', default: false },
    },
  });
  const readings = values.readings.split(',').map((r) => r.trim());
  const bad = readings.filter((r) => !isLoopSuppression(r));
  if (bad.length > 0) throw new Error(`--readings: unknown reading ${bad.join(', ')}`);
  const variant = values.variant.toUpperCase();
  // The loop writes notes and articles with B's bodies and acknowledges both order kinds.
  if (variant !== 'B') throw new Error('--variant: only B is covered by the loop so far');
  const count = (name: string, text: string): number => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--${name}: a positive whole number`);
    return n;
  };
  return {
    seeds: count('seeds', values.seeds),
    firstSeed: count('first-seed', values['first-seed']),
    readings: readings as LoopSuppression[],
    passes: count('passes', values.passes),
    variant,
    verbose: values.verbose,
    oneApp: values['one-app'],
  };
}

// ---- a seeded choice -----------------------------------------------------------------------

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

// ---- what the platform applied -------------------------------------------------------------

/** One write the platform's store applied: by a client (API) or by a platform user (null). */
interface Applied {
  resource: string;
  id: string;
  by: string | null;
  before: Row | undefined;
  record: Row;
  phase: Phase;
  /** The API request that made it (its status is filled in once it is answered or cut). */
  request: RequestLogEntry | undefined;
}

type Phase = 'seed' | 'faults' | 'settle';

/**
 * Every write from now on, seen in the simulator's record store (the API's writes and the control
 * API's alike): a write whose answer a `resetAfterProcessing` fault withheld is here too.
 */
function watchWrites(sim: RunningSimulator, phase: () => Phase): Applied[] {
  const applied: Applied[] = [];
  const store = sim.state.store;
  const put = store.put.bind(store);
  store.put = (tenant, resource, record, meta) => {
    const id = String(record._id);
    const before = store.get(tenant, resource, id)?.record;
    put(tenant, resource, record, meta);
    if (tenant !== TENANT || !(WATCHED as readonly string[]).includes(resource)) return;
    const pending = sim.state.requests
      .list()
      .findLast(
        (e) => e.status === null && WRITES.has(e.method) && e.client === meta.changedByClient,
      );
    applied.push({
      request: meta.changedByClient === null ? undefined : pending,
      resource,
      id,
      by: meta.changedByClient,
      before,
      record: structuredClone(record),
      phase: phase(),
    });
  };
  return applied;
}

function platformRecords(sim: RunningSimulator, resource: ResourceName): Row[] {
  const rows = sim.state.store.list(
    TENANT,
    resource,
    [{ archived: false }, { archived: true }],
    {},
  );
  return [...rows].map((text) => JSON.parse(text) as Row);
}

const stampOf = (record: Row | undefined): string =>
  typeof record?.timestamp === 'string' ? record.timestamp : '';

// ---- the ERP's side: the outbox and the inbox ----------------------------------------------

interface OutFile {
  name: string;
  id: string;
  stamp: string;
  record: Row;
  text: string;
}

function outboxOf(outbox: string, resource: string): OutFile[] {
  let names: string[];
  try {
    names = readdirSync(join(outbox, resource)).filter(
      (name) => !name.startsWith('.') && name.endsWith('.json'),
    );
  } catch {
    return [];
  }
  return names.map((name) => {
    const text = readFileSync(join(outbox, resource, name), 'utf8');
    const record = JSON.parse(text) as Row;
    return { name, id: String(record._id), stamp: stampOf(record), record, text };
  });
}

function byId(files: readonly OutFile[]): Map<string, OutFile[]> {
  const map = new Map<string, OutFile[]>();
  for (const file of files) map.set(file.id, [...(map.get(file.id) ?? []), file]);
  for (const list of map.values()) list.sort((a, b) => a.stamp.localeCompare(b.stamp));
  return map;
}

function drop(inbox: string, kind: string, name: string, body: unknown): void {
  mkdirSync(join(inbox, kind), { recursive: true });
  writeFileSync(join(inbox, kind, name), JSON.stringify(body));
  writeFileSync(join(inbox, kind, `${name}.done`), '');
}

/** The inbox's reports of refused files and rows, but for the bad rows the ERP wrote on purpose. */
function rejectedInbox(inbox: string, onPurpose: ReadonlySet<string>): string[] {
  try {
    return readdirSync(join(inbox, '.error'), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name.endsWith('.error.json'))
      .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
      .filter((text) => !onPurpose.has(String((JSON.parse(text) as Row).file)))
      .map((text) => text.slice(0, 400));
  } catch {
    return [];
  }
}

// ---- one run -------------------------------------------------------------------------------

interface Run {
  seed: number;
  reading: LoopSuppression;
  sim: RunningSimulator;
  control: SimControl;
  /** The one App of `--one-app`; undefined: one per pass. */
  app: App | undefined;
  configPath: string;
  folder: string;
  outbox: string;
  inbox: string;
  random: () => number;
  applied: Applied[];
  /** The seed's records, as they were before the loop. */
  seeded: Map<string, Row>;
  /** What the ERP asked for, to compare with the platform at the end. */
  erp: {
    patientsCreated: string[];
    mobilePhones: Map<string, string>;
    articlesCreated: string[];
    listPrices: Map<string, string>;
    notes: { customerId: string; text: string }[];
  };
  /** The ERP's answers to the orders and its repeats (erpSide.ts). */
  erpSide: ErpSide;
  /** Records a platform user created or changed, and the fields the user set. */
  userEdits: Map<string, Set<string>>;
  violations: string[];
  figures: Figures;
}

interface Figures {
  passes: number;
  settlePasses: number;
  requests: number;
  errors5xx: number;
  cutBefore: number;
  cutAfter: number;
  writesSent: number;
  ordersChecked: number;
  acknowledged: number;
  outboxFiles: number;
  inboxFiles: number;
  notesDead: number;
  notesDeadOnPlatform: number;
  otherDead: number;
  redundantWrites: number;
  userEdits: number;
  erpWrites: number;
  finalOk: boolean;
  finalWrites: number;
  ms: number;
}

const key = (resource: string, id: string): string => `${resource}/${id}`;

function noteUserEdit(run: Run, resource: string, id: string, fields: readonly string[]): void {
  const set = run.userEdits.get(key(resource, id)) ?? new Set<string>();
  for (const field of fields) set.add(field);
  run.userEdits.set(key(resource, id), set);
}

/** The platform's stamps, and `archived`, which the archival checks read on their own. */
const STAMPS = [...STAMP_FIELDS, 'archived'];

function withoutStamps(record: Row, ...more: string[]): Row {
  const copy = { ...record };
  for (const field of [...STAMPS, ...more]) delete copy[field];
  return copy;
}

/** Platform users: a new order or two, edits of orders and patients, now and then a new patient. */
async function platformUsers(run: Run, round: number): Promise<void> {
  const live = (resource: ResourceName) =>
    platformRecords(run.sim, resource).filter((r) => r.archived !== true);
  for (const resource of ORDERS) {
    if (resource === 'directOrder' && round % 2 === 1) continue;
    const template = pick(run.random, live(resource));
    const record = {
      ...withoutStamps(template, 'transmittedAt', 'salesId', 'erpOrderNumber', 'trackingInfo'),
      status: CREATED,
      creationDate: new Date().toISOString(),
      annotation: `fault loop seed ${run.seed}, round ${round}: a new ${resource}`,
    };
    const created = await run.control.createRecord(resource, record);
    noteUserEdit(run, resource, String(created._id), ['annotation']);
  }
  for (let k = 0; k < 2; k++) {
    const resource = pick(run.random, ORDERS);
    const order = pick(run.random, live(resource));
    const deliveryInformation = `round ${round}, edit ${k}: ring twice`;
    await run.control.patchRecord(resource, String(order._id), { deliveryInformation });
    noteUserEdit(run, resource, String(order._id), ['deliveryInformation']);
  }
  const patients = live('patient');
  // The ERP's patients count among those a user may edit, named whether or not their create
  // went through yet, so that the choice does not depend on how the faults fell.
  const candidates = [
    ...patients.filter((p) => run.seeded.has(key('patient', String(p._id)))).map((p) => p._id),
    ...run.erp.patientsCreated,
  ];
  const chosen = pick(run.random, candidates);
  const patient = patients.find((p) => p._id === chosen || p.customerId === chosen);
  const phone = `0221 ${run.seed}${String(round).padStart(2, '0')}${Math.floor(run.random() * 1000)}`;
  if (patient !== undefined) await editPhone(run, patient, phone);
  if (round % 2 === 0) {
    const template = pick(
      run.random,
      patients.filter((p) => run.seeded.has(key('patient', String(p._id)))),
    );
    const record = {
      ...withoutStamps(template, 'customerId'),
      lastName: `Neu-${run.seed}-${round}`,
    };
    const created = await run.control.createRecord('patient', record);
    noteUserEdit(run, 'patient', String(created._id), ['lastName']);
  }
}

async function editPhone(run: Run, patient: Row, phone: string): Promise<void> {
  await run.control.patchRecord('patient', String(patient._id), { phone });
  noteUserEdit(run, 'patient', String(patient._id), ['phone']);
}

/** The ERP's master data: a new patient, a changed one, a note, a new and a changed article. */
function erpWrites(run: Run, round: number): number {
  const name = (kind: string) => `seed${run.seed}-round${round}-${kind}.json`;
  let files = 0;
  const put = (kind: string, body: unknown, suffix = ''): void => {
    drop(run.inbox, kind, name(`${kind}${suffix}`), body);
    files += 1;
  };
  const customerId = `E-${run.seed}-${round}`;
  put('patient', {
    customerId,
    firstName: 'Hans',
    lastName: `Meier-${round}`,
    birthday: '1938-11-23',
    address: 'Poppelsdorfer Allee 88',
    postalCode: '53115',
    city: 'Bonn',
    phone: '0228 918273',
  });
  run.erp.patientsCreated.push(customerId);

  const seededPatients = [...run.seeded.values()].filter(
    (r) => r.__resource === 'patient' && typeof r.customerId === 'string' && r.archived !== true,
  );
  const changed = pick(run.random, seededPatients);
  const mobilePhone = `0170 ${run.seed}-${round}`;
  put('patient', { customerId: changed.customerId, mobilePhone }, '-change');
  run.erp.mobilePhones.set(String(changed.customerId), mobilePhone);

  const noted = pick(run.random, seededPatients);
  const text = `Fault loop seed ${run.seed}, round ${round}: delivered, patient asks for mornings.`;
  put('patientNote', { patientCustomerId: noted.customerId, noteText: text, status: 1 });
  run.erp.notes.push({ customerId: String(noted.customerId), text });

  const customerNumber = `E-${run.seed}-${round}`;
  put('article', {
    customerNumber,
    name: `Saugkompresse steril ${round} x 10 cm`,
    packagingUnits: [{ quantity: 10, unit: 'Stück' }],
  });
  run.erp.articlesCreated.push(customerNumber);
  const articles = [...run.seeded.values()].filter(
    (r) => r.__resource === 'article' && typeof r.customerNumber === 'string' && !r.archived,
  );
  const article = pick(run.random, articles);
  const listPrice = `${10 + round}.${String(run.seed % 100).padStart(2, '0')}`;
  put(
    'article',
    {
      customerNumber: article.customerNumber,
      name: article.name,
      packagingUnits: (article.packagingUnits as Row[]).map((unit) => ({
        quantity: unit.quantity,
        unit: unit.unit,
        ...(unit.pcn === undefined ? {} : { pcn: unit.pcn }),
      })),
      listPrice,
    },
    '-change',
  );
  run.erp.listPrices.set(String(article.customerNumber), listPrice);

  return files;
}

/** The orders the ERP holds whose every file is still Created: what it answers next. */
function unansweredOrders(run: Run): HandedOrder[] {
  const orders: HandedOrder[] = [];
  for (const resource of ORDERS) {
    for (const [id, files] of byId(outboxOf(run.outbox, resource))) {
      const newest = files.at(-1);
      if (newest === undefined || files.some((f) => f.record.status !== CREATED)) continue;
      orders.push({ resource, id, record: newest.record });
    }
  }
  return orders;
}

/** The ERP's answers to the orders of this round, and its repeats (erpSide.ts). */
function erpAnswers(run: Run, round: number): Promise<number> {
  return run.erpSide.round({
    inbox: run.inbox,
    round,
    random: run.random,
    unanswered: unansweredOrders(run),
    replay: (path) =>
      withApp(run, (app) =>
        replayInboxMessage(app.store, app.config, path, {
          cwd: run.folder,
          operator: { osUser: 'fault-loop', host: 'soak' },
        }),
      ),
  });
}

async function setFaults(control: SimControl): Promise<void> {
  for (const method of ['GET', 'POST', 'PATCH', 'PUT']) {
    // Cuts first: where two faults fire, the first set decides how the answer goes wrong.
    await control.setFault({ method, reset: true, errorRate: 0.05 });
    await control.setFault({ method, resetAfterProcessing: true, errorRate: 0.05 });
    // 1 - (1 - 0.1633)² ≈ 0.30 of the requests draw a 5xx, half 503, half 500.
    await control.setFault({ method, errorStatus: 503, errorRate: 0.1633 });
    await control.setFault({ method, errorStatus: 500, errorRate: 0.1633 });
  }
}

function logSince(sim: RunningSimulator, from: number): readonly RequestLogEntry[] {
  return sim.state.requests.list().slice(from);
}

/**
 * `fn` with the daemon's pieces: opened for it, as each `sync --once` is a process of its own
 * (its circuit breakers start closed), unless `--one-app` keeps one App for the whole run.
 */
async function withApp<T>(run: Run, fn: (app: App) => Promise<T> | T): Promise<T> {
  if (run.app !== undefined) return fn(run.app);
  const app = await openApp(run.configPath, run.folder);
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
}

async function pass(run: Run): Promise<{ report: SyncReport; writes: RequestLogEntry[] }> {
  const from = run.sim.state.requests.list().length;
  const report = await withApp(run, (app) => syncOnce(app, PULLED));
  const writes = logSince(run.sim, from).filter((entry) => WRITES.has(entry.method));
  return { report, writes };
}

function failureOf(report: SyncReport): string {
  const pulls = report.pulls.filter((p) => !p.ok).map((p) => p.resource);
  const parts = [
    pulls.length > 0 ? `pulls failed: ${pulls.join(', ')}` : '',
    report.delivery.undelivered > 0 ? `undelivered ${report.delivery.undelivered}` : '',
    report.delivery.refused > 0 ? `refused ${report.delivery.refused}` : '',
    report.queue.waiting > 0 ? `queue waiting ${report.queue.waiting}` : '',
    report.newDeadLetters > 0 ? `new dead letters ${report.newDeadLetters}` : '',
    (report.inbox?.counts.rejected ?? 0) > 0
      ? `inbox rejected ${report.inbox?.counts.rejected}`
      : '',
    (report.inbox?.counts.failed ?? 0) > 0 ? `inbox failed ${report.inbox?.counts.failed}` : '',
  ];
  return parts.filter((p) => p !== '').join('; ') || 'not ok';
}

// ---- the operator: dead letters ------------------------------------------------------------

function noteOnPlatform(
  run: Run,
  customerId: string | undefined,
  patientId: string | undefined,
  text: string,
): number {
  const patients = platformRecords(run.sim, 'patient');
  const ids = new Set(
    patients
      .filter(
        (p) => (customerId !== undefined && p.customerId === customerId) || p._id === patientId,
      )
      .map((p) => String(p._id)),
  );
  return platformRecords(run.sim, 'patientNote').filter(
    (n) => n.noteText === text && ids.has(String(n.patientId)),
  ).length;
}

/**
 * The open dead letters, resolved as an operator would: a note whose create's answer was lost is
 * looked for on the platform, then retried or dropped. Any other dead letter is a violation.
 */
function resolveDeadLetters(run: Run, store: Store): number {
  let retried = 0;
  for (const job of listJobs(store, { dead: true })) {
    const details = getJob(store, job.id);
    const reason = details?.deadLetters.at(-1)?.reason ?? job.lastError ?? '';
    const payload = job.payload;
    const text = typeof payload.noteText === 'string' ? payload.noteText : undefined;
    if (
      job.kind.includes('patientNote') &&
      text !== undefined &&
      reason.includes('may already exist')
    ) {
      run.figures.notesDead += 1;
      const customerId =
        typeof payload.patientCustomerId === 'string' ? payload.patientCustomerId : undefined;
      const patientId = typeof payload.patientId === 'string' ? payload.patientId : undefined;
      if (noteOnPlatform(run, customerId, patientId, text) > 0) {
        run.figures.notesDeadOnPlatform += 1;
        dropJob(store, job.id);
      } else {
        retryJob(store, job.id, supersedingKind);
        retried += 1;
      }
      continue;
    }
    run.figures.otherDead += 1;
    run.violations.push(
      `unexpected dead letter: job ${job.id} ${job.kind} (${job.entityKey}): ${reason.slice(0, 300)}`,
    );
  }
  return retried;
}

// ---- the checks ----------------------------------------------------------------------------

/** The writes applied to one record, oldest first. */
function writesOf(run: Run, resource: string, id: string): Applied[] {
  return run.applied.filter((a) => a.resource === resource && a.id === id);
}

/** The record's writes and outbox files in one line, for a violation's report. */
function historyOf(run: Run, resource: string, id: string, files: readonly OutFile[]): string {
  const time = (stamp: string) => stamp.slice(11, 23);
  const writes = writesOf(run, resource, id).map((w) => {
    const who = w.by === null ? 'user' : w.by === OUR_CLIENT ? 'us' : w.by;
    const status =
      w.before?.status !== w.record.status && w.record.status !== undefined
        ? ` status ${JSON.stringify(w.before?.status ?? '-')}→${JSON.stringify(w.record.status)}`
        : '';
    const request =
      w.request === undefined
        ? ''
        : ` ${w.request.method} ${w.request.path} → ${w.request.status === 0 ? `cut, ${String(w.request.withheldStatus)} withheld` : String(w.request.status)}`;
    const changed = Object.keys({ ...w.before, ...w.record }).filter(
      (field) =>
        !STAMPS.includes(field) &&
        field !== 'status' &&
        JSON.stringify(w.before?.[field]) !== JSON.stringify(w.record[field]),
    );
    const fields =
      w.before === undefined || changed.length === 0
        ? ''
        : ` {${changed.map((f) => (f.endsWith('hone') ? `${f}=${JSON.stringify(w.record[f])}` : f)).join(', ')}}`;
    return `${who}@${time(stampOf(w.record))}${status}${fields}${request}${w.phase === 'settle' ? ' (clean)' : ''}`;
  });
  const seeded = run.seeded.has(key(resource, id)) ? ['seed'] : [];
  const handed = files.map((f) => time(f.stamp));
  return `writes [${[...seeded, ...writes].join(', ')}], ERP files [${handed.join(', ')}]`;
}

/**
 * Each outbox file is a version some write made: a platform user's (or the seed's), or ours.
 * One of ours is the ERP's only when a platform user's change came after the version before it.
 */
function checkHandedVersions(run: Run, resource: ResourceName, files: OutFile[]): void {
  const seen = new Set<string>();
  let previousStamp = '';
  for (const file of files) {
    const content = JSON.stringify(withoutStamps(file.record));
    const sameVersion = `${file.stamp} ${content}`;
    if (seen.has(sameVersion)) {
      run.violations.push(
        `${resource} ${file.id}: version ${file.stamp} handed to the ERP twice (${file.name})`,
      );
    }
    seen.add(sameVersion);
    const writes = writesOf(run, resource, file.id);
    const made = writes.filter((w) => stampOf(w.record) === file.stamp).at(-1);
    if (made !== undefined && made.by !== null) {
      const userBetween = writes.some(
        (w) =>
          w.by === null && stampOf(w.record) > previousStamp && stampOf(w.record) <= file.stamp,
      );
      const seededBetween =
        previousStamp === '' && stampOf(run.seeded.get(key(resource, file.id))) !== '';
      if (!userBetween && !seededBetween) {
        run.violations.push(
          `${resource} ${file.id}: our own write (${made.by}, ${file.stamp}) handed back to the ERP as a platform change (${file.name}); ${historyOf(run, resource, file.id, files)}`,
        );
      }
    }
    previousStamp = file.stamp;
  }
}

/** Every order in the outbox, once per version; every created order acknowledged once. */
function checkOrders(run: Run): void {
  for (const resource of ORDERS) {
    const files = byId(outboxOf(run.outbox, resource));
    for (const order of platformRecords(run.sim, resource)) {
      const id = String(order._id);
      run.figures.ordersChecked += 1;
      const handed = files.get(id) ?? [];
      if (handed.length === 0) {
        run.violations.push(
          `${resource} ${id}: never handed to the ERP (status ${String(order.status)})`,
        );
      }
      checkHandedVersions(run, resource, handed);
      const writes = writesOf(run, resource, id);
      const seeded = run.seeded.get(key(resource, id));
      const bornCreated =
        (seeded !== undefined && seeded.status === CREATED && seeded.__acknowledged !== true) ||
        writes.some((w) => w.by === null && w.before === undefined && w.record.status === CREATED);
      const ours = writes.filter((w) => w.by === OUR_CLIENT);
      const outOfCreated = ours.filter(
        (w) => w.before?.status === CREATED && w.record.status !== CREATED,
      );
      const acks = ours.filter((w) => w.record.status === TRANSMITTED);
      const lateAcks = acks.filter((w) => w.before?.status !== CREATED);
      if (bornCreated) {
        if (outOfCreated.length === 1) run.figures.acknowledged += 1;
        else {
          run.violations.push(
            `${resource} ${id}: taken out of Created by ${outOfCreated.length} writes of ours (want 1; status now ${String(order.status)})`,
          );
        }
      }
      for (const late of lateAcks) {
        run.violations.push(
          `${resource} ${id}: an acknowledgement (status 1) applied to an order in status ${String(late.before?.status)} (second effect${late.phase === 'settle' ? ', after the faults' : ''}); ${historyOf(run, resource, id, handed)}`,
        );
      }
    }
  }
}

/** Each platform user's edit, as it stands on the platform now, in the ERP's newest file. */
function checkUserEdits(run: Run): void {
  for (const [recordKey, fields] of run.userEdits) {
    const [resource, id] = recordKey.split('/') as [ResourceName, string];
    const now = run.sim.state.store.get(TENANT, resource, id)?.record;
    const lastUser = writesOf(run, resource, id)
      .filter((w) => w.by === null)
      .at(-1);
    const files = byId(outboxOf(run.outbox, resource)).get(id) ?? [];
    const newest = files.at(-1);
    if (now === undefined || lastUser === undefined) continue;
    run.figures.userEdits += 1;
    if (newest === undefined || newest.stamp < stampOf(lastUser.record)) {
      run.violations.push(
        `${resource} ${id}: the platform user's edit of ${stampOf(lastUser.record)} (${[...fields].join(', ')}) not in the ERP (newest file ${newest?.stamp ?? 'none'}); ${historyOf(run, resource, id, files)}`,
      );
      continue;
    }
    for (const field of fields) {
      if (JSON.stringify(newest.record[field]) !== JSON.stringify(now[field])) {
        run.violations.push(
          `${resource} ${id}${typeof now.customerId === 'string' ? ` (customerId ${now.customerId})` : ''}: ${field} is ${JSON.stringify(now[field])} on the platform, ${JSON.stringify(newest.record[field])} in the ERP's newest file ${newest.name}; ${historyOf(run, resource, id, files)}`,
        );
      }
    }
  }
}

function countBy(
  rows: readonly Row[],
  keyOf: (row: Row) => string | undefined,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const k = keyOf(row);
    if (k !== undefined) counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** No record twice; every ERP create and change on the platform; none of them echoed back. */
function checkErpWrites(run: Run): void {
  const patients = platformRecords(run.sim, 'patient');
  const articles = platformRecords(run.sim, 'article');
  const notes = platformRecords(run.sim, 'patientNote');
  const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
  // The seed's own data may repeat a note text for one patient; what the loop made may not.
  const fresh = (resource: string) => (row: Row) => !run.seeded.has(key(resource, String(row._id)));
  for (const [customerId, n] of countBy(patients.filter(fresh('patient')), (p) =>
    text(p.customerId),
  )) {
    if (n > 1) run.violations.push(`patient customerId ${customerId}: ${n} on the platform`);
  }
  for (const [customerNumber, n] of countBy(articles.filter(fresh('article')), (a) =>
    text(a.customerNumber),
  )) {
    if (n > 1)
      run.violations.push(`article customerNumber ${customerNumber}: ${n} on the platform`);
  }
  for (const [note, n] of countBy(
    notes.filter(fresh('patientNote')),
    (x) => `${String(x.patientId)} "${String(x.noteText)}"`,
  )) {
    if (n > 1) run.violations.push(`patientNote of patient ${note}: ${n} on the platform`);
  }
  const patientOf = new Map(patients.map((p) => [p.customerId, p]));
  for (const customerId of run.erp.patientsCreated) {
    if (!patientOf.has(customerId))
      run.violations.push(`patient ${customerId} from the ERP not on the platform`);
  }
  for (const [customerId, mobilePhone] of run.erp.mobilePhones) {
    const now = patientOf.get(customerId)?.mobilePhone;
    if (now !== mobilePhone) {
      run.violations.push(
        `patient ${customerId}: mobilePhone ${JSON.stringify(now)} on the platform, the ERP's last was ${mobilePhone}`,
      );
    }
  }
  const articleOf = new Map(articles.map((a) => [a.customerNumber, a]));
  for (const customerNumber of run.erp.articlesCreated) {
    if (!articleOf.has(customerNumber))
      run.violations.push(`article ${customerNumber} from the ERP not on the platform`);
  }
  for (const [customerNumber, listPrice] of run.erp.listPrices) {
    const now = articleOf.get(customerNumber)?.listPrice;
    if (now !== listPrice) {
      run.violations.push(
        `article ${customerNumber}: listPrice ${JSON.stringify(now)} on the platform, the ERP's last was ${listPrice}`,
      );
    }
  }
  run.figures.erpWrites =
    run.erp.patientsCreated.length +
    run.erp.mobilePhones.size +
    run.erp.articlesCreated.length +
    run.erp.listPrices.size +
    run.erp.notes.length +
    run.erpSide.figures.ordersAnswered;
  for (const note of run.erp.notes) {
    const n = noteOnPlatform(run, note.customerId, undefined, note.text);
    if (n === 0)
      run.violations.push(
        `patientNote "${note.text}" (patient ${note.customerId}) from the ERP not on the platform`,
      );
  }
  // What the ERP wrote comes back to it only with a platform user's change (checkHandedVersions).
  for (const resource of ['patient', 'article', 'patientNote'] as const) {
    for (const [, files] of byId(outboxOf(run.outbox, resource))) {
      checkHandedVersions(run, resource, files);
    }
  }
  for (const entry of rejectedInbox(run.inbox, run.erpSide.badOnPurpose))
    run.violations.push(`inbox file rejected: ${entry}`);
}

/** What the ERP last meant for each order it answered, against the platform (erpSide.ts). */
function checkErpAnswers(run: Run): void {
  const orders = new Map(
    ORDERS.flatMap((resource) => platformRecords(run.sim, resource)).map((order) => [
      String(order._id),
      order,
    ]),
  );
  run.violations.push(...run.erpSide.check(orders, platformRecords(run.sim, 'erpOrder')));
}

/** Writes of ours that changed nothing but the stamps: a second effect of one change. */
function countRedundant(run: Run): void {
  for (const write of run.applied) {
    if (write.by !== OUR_CLIENT || write.before === undefined) continue;
    const before = JSON.stringify(withoutStamps(write.before));
    const after = JSON.stringify(withoutStamps(write.record));
    if (before === after) run.figures.redundantWrites += 1;
  }
}

// ---- the run -------------------------------------------------------------------------------

function seedRecords(sim: RunningSimulator): Map<string, Row> {
  const seeded = new Map<string, Row>();
  for (const resource of WATCHED) {
    for (const record of platformRecords(sim, resource)) {
      const stored = sim.state.store.get(TENANT, resource, String(record._id));
      seeded.set(key(resource, String(record._id)), {
        ...record,
        __resource: resource,
        __acknowledged: stored?.acknowledged === true,
      });
    }
  }
  return seeded;
}

function emptyFigures(): Figures {
  return {
    passes: 0,
    settlePasses: 0,
    requests: 0,
    errors5xx: 0,
    cutBefore: 0,
    cutAfter: 0,
    writesSent: 0,
    ordersChecked: 0,
    acknowledged: 0,
    outboxFiles: 0,
    inboxFiles: 0,
    notesDead: 0,
    notesDeadOnPlatform: 0,
    otherDead: 0,
    redundantWrites: 0,
    userEdits: 0,
    erpWrites: 0,
    finalOk: false,
    finalWrites: 0,
    ms: 0,
  };
}

function faultFigures(run: Run, entries: readonly RequestLogEntry[]): void {
  run.figures.requests = entries.length;
  run.figures.errors5xx = entries.filter((e) => (e.status ?? 0) >= 500).length;
  run.figures.cutAfter = entries.filter(
    (e) => e.status === 0 && e.withheldStatus !== undefined,
  ).length;
  run.figures.cutBefore = entries.filter(
    (e) => e.status === 0 && e.withheldStatus === undefined,
  ).length;
  run.figures.writesSent = entries.filter((e) => WRITES.has(e.method)).length;
}

/** Clean passes until one reports ok, hands nothing over and sends no write. */
async function settle(
  run: Run,
  verbose: boolean,
): Promise<{ ok: boolean; writes: number; last: string }> {
  let last = 'no pass';
  for (let i = 0; i < SETTLE_BOUND; i++) {
    const { report, writes } = await pass(run);
    run.figures.settlePasses += 1;
    last = report.ok
      ? `ok, ${writes.length} writes, ${report.delivery.delivered} handed over`
      : failureOf(report);
    if (verbose) console.log(`    clean pass ${run.figures.settlePasses}: ${last}`);
    if (report.ok && writes.length === 0 && report.delivery.delivered === 0) {
      return { ok: true, writes: 0, last };
    }
  }
  return { ok: false, writes: -1, last };
}

async function runOne(seed: number, reading: LoopSuppression, opts: Options): Promise<Run> {
  let phase: Phase = 'seed';
  const sim = await startSimulator({
    variant: opts.variant,
    seed,
    loopSuppression: reading,
    port: 0,
    host: '127.0.0.1',
    logger: false,
  });
  try {
    return await withTempFolder(async (folder) => {
      // One request and one job at a time: the faults then fall on the same requests each run.
      const { configPath, outbox, inbox } = writeAppConfig(folder, sim.url, opts.variant, {
        retry: { maxAttempts: 12, baseDelayMs: 1000, maxDelayMs: 20_000 },
      });
      const app = opts.oneApp ? await openApp(configPath, folder) : undefined;
      const run: Run = {
        seed,
        reading,
        sim,
        control: new SimControl(sim.url, sim.controlToken),
        app,
        configPath,
        folder,
        outbox,
        inbox,
        random: mulberry32(seed * 7919),
        applied: [],
        seeded: seedRecords(sim),
        erp: {
          patientsCreated: [],
          mobilePhones: new Map(),
          articlesCreated: [],
          listPrices: new Map(),
          notes: [],
        },
        erpSide: erpSide(seed),
        userEdits: new Map(),
        violations: [],
        figures: emptyFigures(),
      };
      run.applied = watchWrites(sim, () => phase);
      try {
        phase = 'faults';
        await setFaults(run.control);
        const from = sim.state.requests.list().length;
        for (let round = 0; round < opts.passes; round++) {
          if (round > 0) {
            await platformUsers(run, round);
            run.figures.inboxFiles += erpWrites(run, round) + (await erpAnswers(run, round));
          }
          const { report } = await pass(run);
          run.figures.passes += 1;
          if (opts.verbose)
            console.log(`    fault pass ${round}: ${report.ok ? 'ok' : failureOf(report)}`);
        }
        faultFigures(run, logSince(sim, from));
        await run.control.clearFaults();
        phase = 'settle';
        const first = await settle(run, opts.verbose);
        const retried = await withApp(run, (app) => resolveDeadLetters(run, app.store));
        const final = retried > 0 || !first.ok ? await settle(run, opts.verbose) : first;
        run.figures.finalOk = final.ok;
        if (!final.ok) {
          run.violations.push(
            `no clean pass that is ok and sends no write within ${SETTLE_BOUND} passes (last: ${final.last})`,
          );
        }
        checkOrders(run);
        checkUserEdits(run);
        checkErpWrites(run);
        checkErpAnswers(run);
        countRedundant(run);
        run.figures.outboxFiles = WATCHED.reduce((n, r) => n + outboxOf(outbox, r).length, 0);
        return run;
      } finally {
        await app?.close();
      }
    });
  } finally {
    await sim.close();
  }
}

function line(run: Run): string {
  const f = run.figures;
  const verdict = run.violations.length === 0 ? 'ok' : `${run.violations.length} VIOLATION(S)`;
  return (
    `seed ${String(run.seed).padStart(2)} ${run.reading.padEnd(13)} ${verdict.padEnd(16)} ` +
    `${f.requests} requests (${f.errors5xx} 5xx, ${f.cutBefore} cut before, ${f.cutAfter} cut after), ` +
    `${f.writesSent} writes; ${f.ordersChecked} orders, ${f.acknowledged} acknowledged once; ` +
    `${f.userEdits} user-edited records, ${f.erpWrites} ERP writes checked; ` +
    `${f.outboxFiles} outbox files; notes dead-lettered ${f.notesDead} (${f.notesDeadOnPlatform} on the platform); ` +
    `${f.redundantWrites} no-change writes; ${f.settlePasses} clean passes; ${(f.ms / 1000).toFixed(1)} s` +
    `\n    ERP: ${erpLine(run.erpSide.figures)}`
  );
}

function erpLine(f: ErpSide['figures']): string {
  return (
    `${f.ordersAnswered} orders answered, ${f.files} files of ${f.rows} rows (${f.parcels} parcels, ${f.lines} delivery lines), ` +
    `${f.reExports} exported again, ${f.badRows} bad rows then ${f.fixedFiles} fixed files, ` +
    `${f.replays} replays (${f.replaysRefused} refused)`
  );
}

async function main(): Promise<number> {
  const opts = options();
  const runs: Run[] = [];
  const started = performance.now();
  console.log(
    `fault loop: ${opts.seeds} seeds from ${opts.firstSeed} × ${opts.readings.join(', ')}, ${opts.passes} passes under faults, variant ${opts.variant}`,
  );
  for (let seed = opts.firstSeed; seed < opts.firstSeed + opts.seeds; seed++) {
    for (const reading of opts.readings) {
      const t0 = performance.now();
      let run: Run;
      try {
        run = await runOne(seed, reading, opts);
      } catch (error) {
        console.log(
          `seed ${seed} ${reading}: the run itself failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
        );
        return 2;
      }
      run.figures.ms = performance.now() - t0;
      runs.push(run);
      console.log(line(run));
      for (const violation of run.violations) console.log(`    ✗ ${violation}`);
    }
  }
  const bad = runs.filter((r) => r.violations.length > 0);
  const sum = (f: (fig: Figures) => number) => runs.reduce((n, r) => n + f(r.figures), 0);
  console.log(
    `\nsummary: ${runs.length} runs, ${bad.length} with violations (${bad.reduce((n, r) => n + r.violations.length, 0)} in all); ` +
      `${sum((f) => f.requests)} requests under faults, ${sum((f) => f.errors5xx)} 5xx, ${sum((f) => f.cutBefore)} cut before and ${sum((f) => f.cutAfter)} after processing; ` +
      `${sum((f) => f.ordersChecked)} orders checked, ${sum((f) => f.acknowledged)} acknowledged once; ` +
      `${sum((f) => f.userEdits)} user-edited records and ${sum((f) => f.erpWrites)} ERP writes checked; ` +
      `${sum((f) => f.settlePasses)} clean passes (${runs.filter((r) => r.figures.finalOk).length} runs ended with an ok pass that sent no write); ` +
      `${sum((f) => f.notesDead)} notes dead-lettered as "may already exist" (${sum((f) => f.notesDeadOnPlatform)} were on the platform); ` +
      `${sum((f) => f.redundantWrites)} writes of ours that changed nothing; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  const erp = (key: keyof ErpSide['figures']) =>
    runs.reduce((n, r) => n + r.erpSide.figures[key], 0);
  console.log(
    `ERP side: ${erp('ordersAnswered')} orders answered, ${erp('files')} files of ${erp('rows')} rows, ` +
      `${erp('parcels')} parcels and ${erp('lines')} delivery lines checked once each; ` +
      `${erp('reExports')} files exported again, ${erp('badRows')} bad rows and ${erp('fixedFiles')} fixed files dropped again, ` +
      `${erp('replays')} replays (${erp('replaysRefused')} refused)`,
  );
  const kinds = new Map<string, number>();
  for (const run of bad) {
    for (const v of run.violations) {
      const kind = v
        .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')
        .replace(/\d+/g, 'N')
        .slice(0, 120);
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
  }
  for (const [kind, n] of kinds) console.log(`  ${n}× ${kind}`);
  console.log(`verdict: ${bad.length === 0 ? 'PASS' : 'FAIL'}`);
  return bad.length === 0 ? 0 : 1;
}

process.exitCode = await main();
