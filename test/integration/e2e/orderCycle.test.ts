import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { findMirrorBy } from '../../../src/store/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { api, startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';
const ORDERS = ['singleOrder', 'directOrder'] as const;
const PULLED = ['patient', 'article', 'integratedCare', ...ORDERS] as const;

type Order = Record<string, unknown> & { _id: string; patientId: string };

describe.each(['A', 'B', 'C'] as const)('the order cycle in variant %s', (variant) => {
  let sim: TestSimulator;
  let simClock: FakeClock;
  let rig: AppRig;
  let app: App;

  beforeEach(async () => {
    simClock = new FakeClock(START);
    sim = await startTestSimulator({ variant, clock: simClock, seed: 11 });
    rig = appRig(sim.url, variant, START);
    app = await rig.open();
  });
  afterEach(async () => {
    await app.close();
    await sim.close();
    rig.cleanup();
  });

  const elapse = (ms: number) => {
    simClock.advance(ms);
    rig.clock.advance(ms);
  };
  const pass = async () => {
    elapse(60_000);
    return syncOnce(app, [...PULLED]);
  };
  const onPlatform = (resource: string, id: string) => sim.control.getRecord(resource, id);
  async function firstCreated(resource: (typeof ORDERS)[number]): Promise<Order> {
    const answer = await api(
      sim,
      'GET',
      `/${resource}?status=created&updatedAfter=1970-01-01T00:00:00.000Z`,
      {
        key: 'demo-key-2',
      },
    );
    const order = (answer.json as Order[])[0];
    if (!order) throw new Error(`the seed has no created ${resource}`);
    return order;
  }

  it('goes created → delivered → Transmitted → Processed with salesId → ERP order with tracking → Sent → Delivered', async () => {
    const orders = {
      singleOrder: await firstCreated('singleOrder'),
      directOrder: await firstCreated('directOrder'),
    };

    const first = await pass();
    expect(first.ok, JSON.stringify(first.pulls.filter((p) => !p.ok))).toBe(true);
    for (const resource of ORDERS) {
      const order = orders[resource];
      expect(rig.outboxFiles(resource).filter((f) => f.startsWith(order._id))).toHaveLength(1);
      expect(await onPlatform(resource, order._id)).toMatchObject({ status: 1 });
    }

    for (const resource of ORDERS) {
      const orderType = resource === 'singleOrder' ? 'single' : 'direct';
      const salesId = `SO-${variant}-${orderType}`;
      rig.drop('orderStatus', `${resource}-1.json`, {
        orderType,
        id: orders[resource]._id,
        status: 3,
        salesId,
      });
    }
    expect((await pass()).ok).toBe(true);
    for (const resource of ORDERS) {
      expect(await onPlatform(resource, orders[resource]._id)).toMatchObject({
        status: 3,
        salesId: `SO-${variant}-${resource === 'singleOrder' ? 'single' : 'direct'}`,
      });
    }

    const tracking = [
      {
        trackingCode: '00340434161234567890',
        trackingLink: 'https://tracking.example/00340434161234567890',
      },
    ];
    for (const resource of ORDERS) {
      const order = orders[resource];
      const orderType = resource === 'singleOrder' ? 'single' : 'direct';
      const salesId = `SO-${variant}-${orderType}`;
      rig.drop('erpOrder', `${resource}-2.json`, {
        salesId,
        patientId: order.patientId,
        outboundDate: '2026-03-01T12:00:00.000Z',
        deliveryAddress: {
          name: 'Erika Mustermann',
          address: 'Hauptstraße 5',
          postalCode: '50667',
          city: 'Köln',
        },
        erpOrderedArticleLines: [
          { articleDescription: 'Saugkompresse', quantity: 2, deliveredQuantity: 2 },
        ],
        trackingInfo: tracking,
        // Variant B's body schema marks every ERP order field required.
        annotation: '',
        prescriptionStatus: 'originalReceived',
        trackingLink: tracking[0]?.trackingLink,
        therapyId: 3,
        completed: true,
      });
      rig.drop('orderStatus', `${resource}-3.json`, {
        orderType,
        salesId,
        status: 4,
        trackingInfo: tracking,
      });
    }
    expect((await pass()).ok).toBe(true);
    for (const resource of ORDERS) {
      const salesId = `SO-${variant}-${resource === 'singleOrder' ? 'single' : 'direct'}`;
      expect(await onPlatform(resource, orders[resource]._id)).toMatchObject({
        status: 4,
        trackingInfo: tracking,
      });
      expect(findMirrorBy(app.store, 'erpOrder', 'salesId', salesId)).toHaveLength(1);
    }

    for (const resource of ORDERS) {
      const orderType = resource === 'singleOrder' ? 'single' : 'direct';
      rig.drop('orderStatus', `${resource}-4.json`, {
        orderType,
        id: orders[resource]._id,
        status: 5,
      });
    }
    expect((await pass()).ok).toBe(true);
    for (const resource of ORDERS) {
      expect(await onPlatform(resource, orders[resource]._id)).toMatchObject({ status: 5 });
    }
    const patches = (await sim.control.requests()).filter(
      (r) => r.method === 'PATCH' && r.status === 200,
    );
    for (const resource of ORDERS) {
      expect(patches.filter((r) => r.path === `/${resource}/${orders[resource]._id}`)).toHaveLength(
        4,
      );
    }
  });

  it('drains a two-minute platform outage afterwards with nothing lost or doubled', async () => {
    const seeded = await firstCreated('singleOrder');
    await pass();
    const { patientId, integratedCareId, orderedArticleLines } = seeded;
    const order = await sim.control.createRecord('singleOrder', {
      status: 0,
      patientId,
      integratedCareId,
      orderedArticleLines,
    });
    const id = String(order['_id']);

    // The outage starts just after the order reached the ERP, before its acknowledgement.
    await sim.control.setFault({
      path: '/singleOrder',
      method: 'PATCH',
      errorRate: 1,
      errorStatus: 503,
    });
    elapse(60_000);
    const delivered = await syncOnce(app, ['singleOrder']);
    expect(delivered.delivery.delivered).toBeGreaterThanOrEqual(1);
    expect(delivered.queue.waiting).toBeGreaterThan(0);
    await sim.control.setFault({ path: '/', errorRate: 1, errorStatus: 503 });
    for (let minute = 0; minute < 2; minute++) {
      elapse(60_000);
      expect((await syncOnce(app, ['singleOrder'])).ok).toBe(false);
    }

    await sim.control.clearFaults();
    await sim.control.clearRequests();
    elapse(60_000);
    const after = await syncOnce(app, ['singleOrder']);
    expect(after.ok).toBe(true);
    expect(await onPlatform('singleOrder', id)).toMatchObject({ status: 1 });
    const acks = (await sim.control.requests()).filter(
      (r) => r.method === 'PATCH' && r.path === `/singleOrder/${id}`,
    );
    expect(acks.map((r) => r.status)).toEqual([200]);
    expect(rig.outboxFiles('singleOrder').filter((f) => f.startsWith(id))).toHaveLength(1);
  });
});
