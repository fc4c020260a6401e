import { existsSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/app/app.js';
import { dryRunOnce, type DryRunReport, type PlannedHandOver } from '../../../src/app/dryRun.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { loadConfig } from '../../../src/config/index.js';
import { dryRunText } from '../../../src/cli/commands/syncPlan.js';
import type { Store } from '../../../src/store/index.js';
import { CYCLE_START, useAppCycle } from '../../support/appCycle.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { runCli } from '../../support/cli.js';
import { startFakeErp, type FakeErp } from '../../support/fakeErp.js';
import { api, useSimulator } from '../../support/simulator.js';

type Order = Record<string, unknown> & { _id: string };

const PULLED = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;

/** Every row of every table: what a later real run would see of the database. */
function contents(store: Store): Record<string, unknown[]> {
  const tables = store.db
    .prepare<[], { name: string }>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .all();
  return Object.fromEntries(
    tables.map(({ name }) => [name, store.db.prepare(`SELECT * FROM "${name}"`).all()]),
  );
}

/** Every file under `folder`, as paths, but the empty `.done` markers beside them. */
function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !entry.name.endsWith('.done'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/**
 * `sync --dry-run`: pulls and maps on a copy of the database and writes nothing (no outbox file,
 * no platform write, no checkpoint or table change); the plan names what a real pass does, which
 * a real pass afterwards then does, once.
 */
describe('sync --dry-run', () => {
  const cycle = useAppCycle({ variant: 'B' });

  async function createdOrders(): Promise<Order[]> {
    const listed = await api(
      cycle().sim,
      'GET',
      '/singleOrder?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
      { key: 'demo-key-2' },
    );
    return listed.json as Order[];
  }

  function dryRun(): Promise<DryRunReport> {
    const { app, rig } = cycle();
    const deps = { clock: rig.clock, env: {}, logger: pino({ enabled: false }), random: () => 0.5 };
    return dryRunOnce(app.config, deps, (dry) => syncOnce(dry, PULLED));
  }

  async function platformWrites(): Promise<string[]> {
    const requests = await cycle().sim.control.requests();
    return requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);
  }

  it('writes nothing, names every record and acknowledgement, and a real pass then does exactly that once', async () => {
    const { app, rig } = cycle();
    const orders = await createdOrders();
    expect(orders.length).toBeGreaterThan(0);
    const before = contents(app.store);
    const databaseFolder = readdirSync(dirname(app.config.storage.path)).sort();

    const report = await dryRun();

    expect(filesUnder(rig.outbox)).toEqual([]);
    expect(await platformWrites()).toEqual([]);
    for (const order of orders) {
      expect(await cycle().sim.control.getRecord('singleOrder', order._id)).toMatchObject({
        status: 0,
      });
    }
    expect(contents(app.store)).toEqual(before);
    expect(readdirSync(dirname(app.config.storage.path)).sort()).toEqual(databaseFolder);

    const text = dryRunText(report);
    const planned = report.handOvers.filter((h) => h.resource === 'singleOrder');
    for (const order of orders) {
      expect(text).toContain(`${order._id} version `);
      expect(text).toMatch(
        new RegExp(
          `ack\\.singleOrder singleOrder:${order._id}\\n    PATCH /singleOrder/${order._id} \\{"status":1\\}`,
        ),
      );
    }
    expect(text).toMatch(/ {2}singleOrder: \d+ new record version\(s\) pulled, \d+ to the ERP/);

    await cycle().pass(PULLED);
    const written = filesUnder(join(rig.outbox, 'singleOrder'));
    expect(planned.map((h) => h.target).sort()).toEqual(written);
    for (const order of orders) {
      expect(written.filter((file) => file.includes(`/${order._id}_`))).toHaveLength(1);
      expect(await cycle().sim.control.getRecord('singleOrder', order._id)).toMatchObject({
        status: 1,
      });
    }
    const patches = await platformWrites();
    for (const order of orders) {
      expect(patches.filter((p) => p === `PATCH /singleOrder/${order._id}`)).toHaveLength(1);
    }
  });

  it('plans a queued ERP message as its kind would write it, and leaves it queued', async () => {
    const { app, rig } = cycle();
    const [order] = await createdOrders();
    await cycle().pass(PULLED);
    rig.drop('orderStatus', 'status-1.json', {
      orderType: 'single',
      id: order?._id,
      status: 3,
      salesId: 'SO-DRY-1',
    });
    await app.inbox?.scanOnce();
    await cycle().sim.control.clearRequests();
    const before = contents(app.store);

    const text = dryRunText(await dryRun());

    expect(text).toContain(
      `orderStatus singleOrder:${order?._id}\n    PATCH /singleOrder/${order?._id} {"status":3,"salesId":"SO-DRY-1"}`,
    );
    expect(await platformWrites()).toEqual([]);
    expect(contents(app.store)).toEqual(before);

    await cycle().pass(['singleOrder']);
    expect(await platformWrites()).toEqual([`PATCH /singleOrder/${order?._id}`]);
  });

  it('runs from the CLI: the plan on stdout, exit 0, the outbox still empty', async () => {
    const { rig } = cycle();
    const [order] = await createdOrders();
    const result = await runCli(['sync', ...PULLED, '--dry-run', '--config', rig.configPath]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('sync --dry-run: pulled and mapped on a copy of the database');
    expect(result.stdout).toContain(join(rig.outbox, 'singleOrder', `${order?._id}_`));
    expect(filesUnder(rig.outbox)).toEqual([]);
    expect(await platformWrites()).toEqual([]);
  });
});

describe('sync --dry-run with the REST adapter', () => {
  const sim = useSimulator({ variant: 'C' });
  let erp: FakeErp | undefined;
  let rig: AppRig | undefined;
  afterEach(async () => {
    await erp?.close();
    rig?.cleanup();
  });

  it('names the request each record would make, sends none, and the real pass then sends those', async () => {
    erp = await startFakeErp();
    const base = `${erp.url}/api`;
    const auth = { type: 'bearer', token: 'erp-secret-3f9a7c21' };
    rig = appRig(sim().url, 'C', CYCLE_START, {
      erp: { adapter: 'rest', rest: { baseUrl: base, auth } },
      // The REST adapter needs the endpoint the ERP answers to; the dry run starts none.
      http: { enabled: true, port: 0, token: 'inbound-secret-6d20f4b8' },
    });
    const { config } = loadConfig({ path: rig.configPath, env: {}, cwd: rig.folder });
    const deps = { clock: rig.clock, env: {}, logger: pino({ enabled: false }), random: () => 0.5 };

    const report = await dryRunOnce(config, deps, (dry) => syncOnce(dry, ['patient']));

    expect(erp.requests).toEqual([]);
    const patients = report.handOvers.filter((h) => h.resource === 'patient');
    expect(patients.length).toBeGreaterThan(0);
    for (const planned of patients) {
      expect(planned.target).toBe(
        `POST ${base}/patient (Idempotency-Key patient:${planned.id}:${planned.version})`,
      );
    }
    expect(dryRunText(report)).not.toContain('erp-secret-3f9a7c21');

    const real = await createApp(config, deps);
    try {
      await syncOnce(real, ['patient']);
    } finally {
      await real.close();
    }
    const keys = (planned: PlannedHandOver) => `patient:${planned.id}:${planned.version}`;
    expect([...erp.stored.keys()].sort()).toEqual(patients.map(keys).sort());
  });
});
