import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { traceKey, type TracedRecord } from '../../../src/cli/commands/trace.js';
import { redeliverRecord } from '../../../src/operations/index.js';
import { CYCLE_START, useAppCycle } from '../../support/appCycle.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startFakeErp, type FakeErp } from '../../support/fakeErp.js';
import {
  firstCreatedOrder,
  startTestSimulator,
  type TestSimulator,
} from '../../support/simulator.js';

const PULLED = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;
const OPERATOR = { osUser: 'tester', host: 'test-host' };

const whats = (records: readonly TracedRecord[]) =>
  records.flatMap((record) => record.events.map((event) => event.what));

/**
 * `trace` names what the ERP got at every hand-over (issue 40, item 6): the outbox file, in
 * the record's own file or in a batch file, or the REST request; and what each push-back wrote.
 */
describe('trace names each hand-over and what each push-back wrote', () => {
  describe('file drop, one file per record (json)', () => {
    const cycle = useAppCycle({ variant: 'B' });
    const trace = (key: string) => traceKey({ config: cycle().rig.configPath }, key);
    const whatsOf = async (key: string) => whats(await trace(key));

    it('names the outbox file of the hand-over and of a redelivery', async () => {
      const order = await firstCreatedOrder(cycle().sim);
      await cycle().pass(PULLED);
      const [file] = cycle()
        .rig.outboxFiles('singleOrder')
        .filter((name) => name.startsWith(`${order._id}_`));
      expect(file).toBeDefined();
      const handed = (await whatsOf(order._id)).filter((what) => what.startsWith('handed '));
      expect(handed).toEqual([
        expect.stringMatching(new RegExp(`^handed version \\S+ to the ERP as singleOrder/${file}`)),
      ]);

      // The redelivery hands the latest version over: the one the acknowledgement made.
      const again = redeliverRecord(cycle().app.store, 'singleOrder', order._id, OPERATOR);
      await cycle().pass(['singleOrder']);
      const [second] = cycle()
        .rig.outboxFiles('singleOrder')
        .filter((name) => name.startsWith(`${order._id}_`) && name !== file);
      expect(second).toBe(`${order._id}_${again.version.replaceAll(':', '-')}.json`);
      const redelivered = (await whatsOf(order._id)).filter((what) =>
        /^job \d+ deliver\.singleOrder done/.test(what),
      );
      expect(redelivered).toEqual([
        expect.stringMatching(new RegExp(`done: handed over as singleOrder/${file}$`)),
        expect.stringMatching(new RegExp(`done: handed over as singleOrder/${second}$`)),
      ]);
    });

    it('says what each push-back wrote: status, salesId, erpOrderNumber and tracking', async () => {
      const order = await firstCreatedOrder(cycle().sim);
      await cycle().pass(PULLED);
      await cycle().pass(['singleOrder']);
      cycle().rig.drop('orderStatus', 'status-1.json', {
        orderType: 'single',
        id: order._id,
        status: 3,
        salesId: 'SO-40',
        erpOrderNumber: 'ERP-40',
        trackingInfo: [{ trackingCode: 'PK-40', trackingLink: 'https://track.example/PK-40' }],
      });
      await cycle().pass(['singleOrder']);
      expect(await whatsOf(order._id)).toContainEqual(
        expect.stringMatching(
          /^job \d+ orderStatus done \(status 3, salesId SO-40, erpOrderNumber ERP-40, tracking PK-40\): platform answered 200$/,
        ),
      );
    });
  });

  describe('file drop, batch files (csv)', () => {
    const cycle = useAppCycle({ variant: 'B', file: { format: 'csv' } });

    it('names the batch file the record went out in', async () => {
      const order = await firstCreatedOrder(cycle().sim);
      await cycle().pass(PULLED);
      const files = cycle().rig.outboxFiles('singleOrder');
      expect(files.every((name) => /^singleOrder_\d{10}\.csv$/.test(name))).toBe(true);
      const handed = whats(await traceKey({ config: cycle().rig.configPath }, order._id)).filter(
        (what) => what.startsWith('handed '),
      );
      expect(handed).toHaveLength(1);
      const named = /in (singleOrder\/singleOrder_\d{10}\.csv)/.exec(handed[0] ?? '')?.[1];
      expect(named, handed[0]).toBeDefined();
      expect(files).toContain(named?.split('/')[1]);
    });
  });

  describe('REST', () => {
    let erp: FakeErp;
    let sim: TestSimulator;
    let rig: AppRig;
    let app: App;
    beforeEach(async () => {
      const simClock = new FakeClock(CYCLE_START);
      sim = await startTestSimulator({ variant: 'B', clock: simClock });
      erp = await startFakeErp();
      rig = appRig(sim.url, 'B', CYCLE_START, {
        erp: { adapter: 'rest', rest: { baseUrl: `${erp.url}/api` } },
        http: { enabled: true, port: 0, token: 'inbound-secret-6d20f4b8' },
      });
      app = await rig.open();
    });
    afterEach(async () => {
      await app.close();
      await erp.close();
      await sim.close();
      rig.cleanup();
    });

    it('names the request: method, URL and Idempotency-Key', async () => {
      const order = await firstCreatedOrder(sim);
      await syncOnce(app, PULLED);
      const key = [...erp.stored.keys()].find((k) => k.startsWith(`singleOrder:${order._id}:`));
      expect(key).toBeDefined();
      const url = `${erp.url}/api/singleOrder`;
      const version = key?.split(':').slice(2).join(':');
      expect(whats(await traceKey({ config: rig.configPath }, order._id))).toContainEqual(
        `handed version ${version} to the ERP: POST ${url} (Idempotency-Key ${key}), answered 2xx; acknowledgement queued`,
      );
    });
  });
});
