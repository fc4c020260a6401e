import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { storageReport } from '../../../src/readModels/index.js';
import { getMirror, mirrorIdsOf, type Store } from '../../../src/store/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { runCli, type CliResult } from '../../support/cli.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startFakeErp, type FakeErp } from '../../support/fakeErp.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';
const RESOURCES = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;
const ERP_TOKEN = 'erp-token-5b7c0e91d2';

interface Pulled {
  sim: TestSimulator;
  rig: AppRig;
  app: App;
  /** A mirrored single order with lines (an openTRANS ORDER needs them). */
  orderId: string;
}

const opened: { sim: TestSimulator; rig: AppRig; app: App; erp?: FakeErp }[] = [];
afterEach(async () => {
  for (const { sim, rig, app, erp } of opened.splice(0)) {
    await app.close();
    await erp?.close();
    await sim.close();
    rig.cleanup();
  }
});

/** Orders pulled into the mirror, their hand-overs queued but not run: the outbox is empty. */
async function pulled(
  extra: Record<string, unknown>,
  file: Record<string, unknown> = {},
  erp?: FakeErp,
): Promise<Pulled> {
  const sim = await startTestSimulator({ variant: 'B', clock: new FakeClock(START) });
  const rig = appRig(sim.url, 'B', START, extra, file);
  const app = await rig.open();
  opened.push({ sim, rig, app, ...(erp === undefined ? {} : { erp }) });
  await app.runner.runAll(RESOURCES);
  const orderId = mirrorIdsOf(app.store, 'singleOrder').find((id) => {
    const lines = getMirror(app.store, 'singleOrder', id)?.record['orderedArticleLines'];
    return Array.isArray(lines) && lines.length > 0;
  });
  if (orderId === undefined) throw new Error('the seed has no single order with lines');
  return { sim, rig, app, orderId };
}

/** Every row of every table: a preview must leave all of them as they were. */
function snapshot(store: Store): Record<string, string[]> {
  return Object.fromEntries(
    Object.keys(storageReport(store).rows).map((table) => [
      table,
      store.db
        .prepare(`SELECT * FROM "${table}"`)
        .all()
        .map((row) => JSON.stringify(row))
        .sort(),
    ]),
  );
}

/**
 * `mapping preview` as the ERP gets it (`--show-personal`, which records the look), with the
 * proof that it wrote and sent nothing else; `masked`: as it prints by default, writing nothing.
 */
async function preview(
  p: Pulled,
  args: string[] = ['singleOrder', p.orderId],
  personal: 'shown' | 'masked' = 'shown',
): Promise<CliResult> {
  const before = snapshot(p.app.store);
  const requests = (await p.sim.control.requests()).length;
  const flags = personal === 'shown' ? ['--show-personal'] : [];
  const result = await runCli(['mapping', 'preview', ...args, ...flags, '-c', p.rig.configPath]);
  expect(p.rig.outboxFiles('singleOrder')).toEqual([]);
  const { operator_actions: looks = [], ...after } = snapshot(p.app.store);
  const { operator_actions: looked = [], ...unchanged } = before;
  expect(after).toEqual(unchanged);
  const recorded = personal === 'shown' && result.code === 0 ? 1 : 0;
  expect(looks.length).toBe(looked.length + recorded);
  expect((await p.sim.control.requests()).length).toBe(requests);
  return result;
}

/** The outbox file `mapping preview` named on stderr. */
const namedFile = (result: CliResult): string => {
  const match = /^# file (.+)$/m.exec(result.stderr);
  if (match?.[1] === undefined) throw new Error(`no file named in:\n${result.stderr}`);
  return match[1];
};

/** Delivers what the pull queued, for real. */
async function deliver(p: Pulled): Promise<void> {
  const report = await syncOnce(p.app, ['singleOrder']);
  expect(report.delivery.undelivered).toBe(0);
}

describe('mapping preview', () => {
  it.each([
    ['json', {}],
    ['xml', { format: 'xml' }],
    ['openTRANS', { format: 'xml', openTrans: true }],
  ])(
    '%s: prints the bytes of the file the adapter then writes, under its name',
    async (_name, file) => {
      const p = await pulled({}, file);
      const result = await preview(p);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toContain('nothing was written or sent');
      const path = namedFile(result);
      expect(path.startsWith(join(p.rig.outbox, 'singleOrder', `${p.orderId}_`))).toBe(true);
      expect(result.stderr).toContain(`then the empty marker ${path}.done`);

      await deliver(p);
      expect(readFileSync(path).equals(Buffer.from(result.stdout, 'utf8'))).toBe(true);
    },
  );

  it('json: the record goes out enriched from the mirror, as the deliver stage enriches it', async () => {
    const p = await pulled({});
    const result = await preview(p);
    const shown = JSON.parse(result.stdout) as Record<string, unknown>;
    const mirrored = getMirror(p.app.store, 'singleOrder', p.orderId)?.record;
    expect(shown['_id']).toBe(p.orderId);
    expect(mirrored).toMatchObject({ _id: p.orderId });
    expect(mirrored?.['patient']).toBeUndefined();
    const patient = shown['patient'] as Record<string, unknown> | undefined;
    expect(typeof patient?.['lastName']).toBe('string');
    expect(shown).toHaveProperty('patientCustomerId');

    // Without --show-personal: the same file with every personal value masked, no look kept.
    const masked = await preview(p, undefined, 'masked');
    expect(masked.stderr).toContain('personal values masked (--show-personal shows them)');
    const plain = JSON.parse(masked.stdout) as Record<string, unknown>;
    expect(plain).toMatchObject({
      _id: p.orderId,
      patientCustomerId: shown['patientCustomerId'],
      patient: { lastName: '[redacted]' },
    });
    expect(masked.stdout).not.toContain(String(patient?.['lastName']));
  });

  it("csv: prints the header and the order's rows, which the batch file then holds", async () => {
    const p = await pulled({}, { format: 'csv' });
    const result = await preview(p);
    expect(result.code, result.stderr).toBe(0);
    expect(namedFile(result)).toBe(join(p.rig.outbox, 'singleOrder', 'singleOrder_##########.csv'));
    expect(result.stderr).toContain('a batch file');

    await deliver(p);
    const [batch, ...more] = readdirSync(join(p.rig.outbox, 'singleOrder')).filter((n) =>
      n.endsWith('.csv'),
    );
    expect(more).toEqual([]);
    const written = readFileSync(join(p.rig.outbox, 'singleOrder', String(batch)), 'utf8').split(
      '\n',
    );
    const [header, ...rows] = result.stdout.split('\n').filter((line) => line !== '');
    expect(written[0]).toBe(header);
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(written).toContain(row);
    expect(rows.every((row) => row.includes(p.orderId))).toBe(true);
  });

  it('rest: prints the request the adapter then sends, URL, Idempotency-Key and body, the token masked', async () => {
    const erp = await startFakeErp();
    const rest = { baseUrl: `${erp.url}/api`, auth: { type: 'bearer', token: ERP_TOKEN } };
    // The ERP reports back over the endpoint, so the config needs it; nothing here starts it.
    const http = { enabled: true, port: 0, token: 'inbound-secret-6d20f4b8' };
    const p = await pulled({ erp: { adapter: 'rest', rest }, http }, {}, erp);
    const result = await preview(p);
    expect(result.code, result.stderr).toBe(0);
    expect(erp.requests).toEqual([]);
    const [head = '', body = ''] = result.stdout.split('\n\n');
    const [requestLine, ...headerLines] = head.split('\n');
    expect(requestLine).toBe(`POST ${erp.url}/api/singleOrder`);
    expect(headerLines).toContain('authorization: Bearer ***');
    expect(result.stdout + result.stderr).not.toContain(ERP_TOKEN);

    await deliver(p);
    const sent = erp.requests.find((r) =>
      String(r.headers['idempotency-key']).startsWith(`singleOrder:${p.orderId}:`),
    );
    expect(headerLines).toContain(`idempotency-key: ${String(sent?.headers['idempotency-key'])}`);
    expect(`${String(sent?.body)}\n`).toBe(body);
  });

  it('exits 1 naming the record when it is not in the mirror, and how to pull it', async () => {
    const p = await pulled({});
    const result = await preview(p, ['singleOrder', 'no-such-order']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('singleOrder no-such-order is not in the mirror');
    expect(result.stderr).toContain('sync singleOrder --once');
    expect(result.stderr).toContain('trace no-such-order');
  });

  it('refuses a misspelt resource, suggesting the one meant', async () => {
    const p = await pulled({});
    const result = await preview(p, ['singelOrder', p.orderId]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('did you mean singleOrder?');
  });
});
