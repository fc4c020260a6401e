import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStandInErp, type StandInErp } from '../../../src/demo/index.js';
import { parseInboxBody } from '../../support/inboxKinds.js';
import { FakeClock } from '../../support/fakeClock.js';

const NOW = '2026-03-01T08:00:00.000Z';

const single = (id: string, status: number, version = 'v1') => ({
  _id: id,
  status,
  timestamp: version,
  patientId: 'patient-1',
  integratedCareId: 'care-1',
  deliveryAddress: {
    name: 'Erika Mustermann',
    address: 'Hauptstraße 5',
    postalCode: '50667',
    city: 'Köln',
  },
  orderedArticleLines: [
    {
      _id: 'line-1',
      articleId: 'article-1',
      articleName: 'Saugkompresse',
      unit: 'Stück',
      quantity: 4,
    },
    { _id: 'line-2', articleId: 'article-2', quantity: 1, archived: true },
  ],
});

describe('the stand-in ERP', () => {
  let folder: string;
  let outbox: string;
  let inbox: string;
  let said: string[];
  let erp: StandInErp;
  let clock: FakeClock;

  const putOrder = (resource: string, name: string, order: unknown) => {
    mkdirSync(join(outbox, resource), { recursive: true });
    writeFileSync(
      join(outbox, resource, name),
      typeof order === 'string' ? order : JSON.stringify(order),
    );
  };
  const inboxFiles = (kind: string) => {
    try {
      return readdirSync(join(inbox, kind)).sort();
    } catch {
      return [];
    }
  };
  const body = (kind: string, name: string) =>
    JSON.parse(readFileSync(join(inbox, kind, name), 'utf8')) as Record<string, unknown>;

  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'homecare-sync-demo-erp-'));
    outbox = join(folder, 'outbox');
    inbox = join(folder, 'inbox');
    said = [];
    clock = new FakeClock(NOW);
    erp = createStandInErp({
      outbox,
      inbox,
      doneMarker: false,
      intervalMs: 10,
      clock,
      say: (line) => said.push(line),
    });
  });
  afterEach(async () => {
    await erp.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('walks a new order through the cycle, one answer per tick, in shapes the inbox accepts', async () => {
    putOrder('singleOrder', 'order-1_v1.json', single('order-1', 0));
    await erp.tick();
    expect(inboxFiles('orderStatus')).toEqual([]);

    await erp.tick();
    expect(inboxFiles('orderStatus')).toEqual(['SO-1-1-Processed.json']);
    expect(body('orderStatus', 'SO-1-1-Processed.json')).toEqual({
      orderType: 'single',
      id: 'order-1',
      status: 3,
      salesId: 'SO-1',
    });

    await erp.tick();
    expect(inboxFiles('erpOrder')).toEqual(['SO-1-2-erpOrder.json']);
    const erpOrder = body('erpOrder', 'SO-1-2-erpOrder.json');
    expect(erpOrder).toMatchObject({
      salesId: 'SO-1',
      patientId: 'patient-1',
      outboundDate: NOW,
      deliveryAddress: { name: 'Erika Mustermann', city: 'Köln' },
      erpOrderedArticleLines: [
        {
          articleId: 'article-1',
          articleDescription: 'Saugkompresse',
          quantity: 4,
          deliveredQuantity: 4,
        },
      ],
    });
    const tracking = erpOrder['trackingInfo'] as { trackingCode: string }[];
    expect(tracking).toHaveLength(1);

    await erp.tick();
    await erp.tick();
    await erp.tick();
    expect(inboxFiles('orderStatus')).toEqual([
      'SO-1-1-Processed.json',
      'SO-1-3-Sent.json',
      'SO-1-4-Delivered.json',
    ]);
    expect(body('orderStatus', 'SO-1-3-Sent.json')).toEqual({
      orderType: 'single',
      id: 'order-1',
      status: 4,
      trackingInfo: tracking,
    });
    expect(body('orderStatus', 'SO-1-4-Delivered.json')).toMatchObject({ status: 5 });
    for (const kind of ['orderStatus', 'erpOrder']) {
      for (const name of inboxFiles(kind)) {
        expect(parseInboxBody(kind, body(kind, name)), name).toMatchObject({
          ok: true,
        });
      }
    }
    expect(erp.orders()).toEqual([
      {
        resource: 'singleOrder',
        id: 'order-1',
        salesId: 'SO-1',
        answered: 4,
        answers: 4,
        files: [
          'orderStatus/SO-1-1-Processed.json',
          'erpOrder/SO-1-2-erpOrder.json',
          'orderStatus/SO-1-3-Sent.json',
          'orderStatus/SO-1-4-Delivered.json',
        ],
      },
    ]);
    expect(said).toHaveLength(4);
  });

  it('answers an order once, however many versions of it the outbox gets', async () => {
    putOrder('singleOrder', 'order-1_v1.json', single('order-1', 0));
    for (let i = 0; i < 5; i++) await erp.tick();
    putOrder('singleOrder', 'order-1_v2.json', single('order-1', 3, 'v2'));
    putOrder('singleOrder', 'order-1_v3.json', { ...single('order-1', 0, 'v3') });
    for (let i = 0; i < 5; i++) await erp.tick();
    expect(inboxFiles('orderStatus')).toHaveLength(3);
    expect(inboxFiles('erpOrder')).toHaveLength(1);
    expect(erp.orders()).toHaveLength(1);
  });

  it('leaves alone orders that are past Created, archived, or not orders at all', async () => {
    putOrder('singleOrder', 'old_v1.json', single('old', 4));
    putOrder('singleOrder', 'gone_v1.json', { ...single('gone', 0), archived: true });
    putOrder('singleOrder', '.order-2_v1.json.tmp-1', single('order-2', 0));
    putOrder('singleOrder', 'order-3_v1.json.done', '');
    putOrder('directOrder', 'broken_v1.json', '{"_id": ');
    for (let i = 0; i < 5; i++) await erp.tick();
    expect(inboxFiles('orderStatus')).toEqual([]);
    expect(erp.orders()).toEqual([]);
    expect(said.join('\n')).toContain('broken_v1.json');
  });

  it('answers a direct order without delivery address to the patient of the enrichment', async () => {
    const order: Record<string, unknown> = single('direct-1', 0);
    delete order['deliveryAddress'];
    delete order['integratedCareId'];
    putOrder('directOrder', 'direct-1_v1.json', {
      ...order,
      patient: {
        firstName: 'Max',
        lastName: 'Muster',
        address: 'Weg 1',
        postalCode: '10115',
        city: 'Berlin',
        phone: '030 1',
      },
    });
    for (let i = 0; i < 3; i++) await erp.tick();
    expect(body('orderStatus', 'SO-1-1-Processed.json')).toMatchObject({ orderType: 'direct' });
    expect(body('erpOrder', 'SO-1-2-erpOrder.json')['deliveryAddress']).toEqual({
      name: 'Max Muster',
      address: 'Weg 1',
      postalCode: '10115',
      city: 'Berlin',
    });
  });

  it('writes each file whole: no temp files stay behind, markers only when asked', async () => {
    const marked = createStandInErp({
      outbox,
      inbox,
      doneMarker: true,
      intervalMs: 10,
      clock: new FakeClock(NOW),
      say: () => undefined,
    });
    putOrder('singleOrder', 'order-1_v1.json', single('order-1', 0));
    await marked.tick();
    await marked.tick();
    expect(inboxFiles('orderStatus')).toEqual([
      'SO-1-1-Processed.json',
      'SO-1-1-Processed.json.done',
    ]);
  });

  it('keeps ticking on its clock until stopped, and not after', async () => {
    putOrder('singleOrder', 'order-1_v1.json', single('order-1', 0));
    erp.start();
    // The first tick waits an interval too; then one answer a tick, after the tick that took it.
    expect(erp.orders()).toEqual([]);
    await clock.elapse(10);
    expect(erp.orders().map((order) => order.answered)).toEqual([0]);
    for (let tick = 1; tick <= 4; tick++) {
      await clock.elapse(10);
      expect(erp.orders()[0]?.answered).toBe(tick);
    }
    await erp.stop();
    expect(clock.sleeping()).toBe(0);
    putOrder('singleOrder', 'order-9_v1.json', single('order-9', 0));
    // Nothing waits on the clock any more: ten intervals of it take no new order.
    clock.advance(100);
    await new Promise((resolve) => setImmediate(resolve));
    expect(erp.orders().map((order) => order.id)).toEqual(['order-1']);
  });
});
