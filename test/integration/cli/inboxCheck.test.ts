import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ORDER_STATUS } from '../../../src/contract/index.js';
import { fileLabel } from '../../../src/log/index.js';
import { orderLineItems } from '../../../src/erp/formats/openTrans/write.js';
import { storageReport } from '../../../src/readModels/index.js';
import { getMirror, mirrorIdsOf, type Store } from '../../../src/store/index.js';
import { useAppCycle } from '../../support/appCycle.js';
import { REPO_ROOT, runCli, type CliResult } from '../../support/cli.js';
import { dispatchNotification, orderResponse } from '../../support/erp/openTransAnswers.js';

const RESOURCES = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;

/** Every row of every table: a check must leave all of them as they were. */
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

/** Every entry below the inbox, folders included, with each file's bytes. */
function inboxTree(inbox: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(inbox, { recursive: true, withFileTypes: true }).map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return [path, entry.isFile() ? readFileSync(path, 'base64') : '(folder)'];
    }),
  );
}

describe('inbox check', () => {
  const cycle = useAppCycle({ variant: 'B' });

  /** Pulls, hands over and acknowledges the orders; answers one we acknowledged, with lines. */
  async function acknowledgedOrder(): Promise<Record<string, unknown> & { _id: string }> {
    await cycle().pass(RESOURCES);
    const { store } = cycle().app;
    for (const id of mirrorIdsOf(store, 'singleOrder')) {
      const record = getMirror(store, 'singleOrder', id)?.record;
      const transmitted = record?.['status'] === ORDER_STATUS.Transmitted;
      if (record !== undefined && transmitted && orderLineItems(record).length > 0) return record;
    }
    throw new Error('no single order with lines was acknowledged');
  }

  /** Writes `content` as `<inbox>/<folder>/<name>`; answers its path. */
  function place(folder: string, name: string, content: string): string {
    const dir = join(cycle().rig.inbox, folder);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, name), content);
    return join(dir, name);
  }

  /** `inbox check`, with the proof that the file, the inbox, the database and the platform stayed as they were. */
  async function check(path: string, ...options: string[]): Promise<CliResult> {
    const { app, sim, rig } = cycle();
    const before = { db: snapshot(app.store), inbox: inboxTree(rig.inbox) };
    const requests = (await sim.control.requests()).length;
    const result = await runCli(['inbox', 'check', path, ...options, '-c', rig.configPath]);
    expect(inboxTree(rig.inbox)).toEqual(before.inbox);
    expect(snapshot(app.store)).toEqual(before.db);
    expect((await sim.control.requests()).length).toBe(requests);
    return result;
  }

  it('orderStatus JSON: prints the PATCH of the order with the fields it would write', async () => {
    const order = await acknowledgedOrder();
    const path = place(
      'orderStatus',
      'status-1.json',
      JSON.stringify({
        orderType: 'single',
        id: order._id,
        status: 3,
        salesId: 'SO-CHECK-1',
      }),
    );
    const result = await check(path);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`read as orderStatus: 1 message(s)`);
    // The file by its label: an ERP may name a file after its patient.
    expect(result.stdout).toContain(
      `orderStatus ${fileLabel('status-1.json')} (queue key singleOrder:${order._id})`,
    );
    expect(result.stdout).not.toContain('status-1.json');
    expect(result.stdout).toContain(`PATCH /singleOrder/${order._id}`);
    expect(result.stdout).toContain('"salesId": "SO-CHECK-1"');
    expect(result.stdout).toContain('"status": 3');
    expect(result.stdout).not.toContain('orderType');
  });

  it('takes the kind from --kind for a file outside the inbox, and refuses a folder that is no kind', async () => {
    const order = await acknowledgedOrder();
    const body = JSON.stringify({ orderType: 'single', id: order._id, erpOrderNumber: 'A-77' });
    const path = place('elsewhere', 'status-2.json', body);
    const byFolder = await check(path);
    expect(byFolder.code).toBe(1);
    expect(byFolder.stderr).toContain('"elsewhere", which is not an inbox kind');
    const misspelt = await check(path, '--kind', 'orderstatus');
    expect(misspelt.stderr).toContain('did you mean orderStatus?');
    const given = await check(path, '--kind', 'orderStatus');
    expect(given.code, given.stderr).toBe(0);
    expect(given.stdout).toContain(`PATCH /singleOrder/${order._id}`);
    expect(given.stdout).toContain('"erpOrderNumber": "A-77"');
  });

  it('openTRANS ORDERRESPONSE: the order found by ORDER_ID gets its salesId', async () => {
    const order = await acknowledgedOrder();
    const lines = orderLineItems(order).map(({ lineItemId, line }) => ({
      lineItemId,
      quantity: Number(line['quantity']),
    }));
    const text = orderResponse({ orderId: order._id, salesId: 'VK-CHECK-7', lines });
    const result = await check(place('opentrans', 'response-1.xml', text));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`orderStatus ${fileLabel('response-1.xml')}#${order._id}`);
    expect(result.stdout).toContain(`PATCH /singleOrder/${order._id}`);
    expect(result.stdout).toContain('"salesId": "VK-CHECK-7"');
  });

  it('openTRANS DISPATCHNOTIFICATION: the order is set to sent with its tracking', async () => {
    const order = await acknowledgedOrder();
    const lines = orderLineItems(order).map(({ lineItemId, line }) => ({
      orderId: order._id,
      lineItemId,
      quantity: Number(line['quantity']),
      salesId: 'VK-CHECK-8',
    }));
    const text = dispatchNotification({
      shipmentId: '00340434161094042557',
      trackingUrl: 'https://paket.example.de/track?code=00340434161094042557',
      lines,
    });
    const result = await check(place('opentrans', 'dispatch-1.xml', text));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain(`PATCH /singleOrder/${order._id}`);
    expect(result.stdout).toContain('"status": 4');
    expect(result.stdout).toContain('"trackingCode": "00340434161094042557"');
    expect(result.stdout).toContain('"salesId": "VK-CHECK-8"');
  });

  it('an example message of the docs: a status by salesId the mirror does not know writes nothing and says why', async () => {
    await acknowledgedOrder();
    const example = join(REPO_ROOT, 'docs/examples/inbox/orderStatus/VK-2026-004711-sent.json');
    const path = join(cycle().rig.inbox, 'orderStatus', 'VK-2026-004711-sent.json');
    mkdirSync(join(cycle().rig.inbox, 'orderStatus'), { recursive: true });
    copyFileSync(example, path);
    const result = await check(path);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('no write');
    expect(result.stdout).toContain('no single order with salesId VK-2026-004711 is known');
  });

  it('a bad file: prints the report the inbox would write beside it in .error/ and exits 1', async () => {
    await acknowledgedOrder();
    const path = place(
      'orderStatus',
      'bad-1.json',
      JSON.stringify({ orderType: 'single', status: 'sent' }),
    );
    const result = await check(path);
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as {
      file: string;
      kind: string;
      reason: string;
      problems: { path?: string; message: string }[];
    };
    expect(report).toMatchObject({ file: fileLabel('bad-1.json'), kind: 'orderStatus' });
    expect(report.reason).toContain('not a valid orderStatus message');
    expect(report.problems.map((p) => p.path)).toEqual(expect.arrayContaining(['status', 'id']));
    const labelled = join(dirname(path), fileLabel('bad-1.json'));
    expect(result.stderr).toContain(`would set ${labelled} aside in .error/orderStatus/`);
    expect(existsSync(path)).toBe(true);
  });

  it('a bad openTRANS file: the report names the line and the element, exit 1', async () => {
    await acknowledgedOrder();
    const text = orderResponse({ orderId: 'x', lines: [{ lineItemId: 'l', quantity: 1 }] }).replace(
      '<QUANTITY>1</QUANTITY>',
      '<QUANTITY>one</QUANTITY>',
    );
    const result = await check(place('opentrans', 'bad-2.xml', text));
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { problems: { line?: number; message: string }[] };
    expect(
      report.problems.some((p) => typeof p.line === 'number' && /QUANTITY/.test(p.message)),
    ).toBe(true);
  });
});
