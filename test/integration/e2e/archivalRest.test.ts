import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import type { Variant } from '../../../src/contract/index.js';
import { countUndelivered } from '../../../src/store/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startFakeErp, type FakeErp } from '../../support/fakeErp.js';
import { api, startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';
const EPOCH = '1970-01-01T00:00:00.000Z';
type Row = Record<string, unknown>;

/**
 * Issue #23.6 with the REST adapter: an archival is one call, by default POST
 * `<baseUrl>/<resource>/<_id>/archived`, with an Idempotency-Key of its own
 * (`<resource>:<_id>:<version>:archived`), made once however often the archived version is
 * pulled, and sent again with the same key only when its answer was lost. Only when
 * `erp.rest.archivalEvents` is on: off (the default), the event counts as handed over unsent.
 */
describe.each([
  ['B', undefined, true],
  ['C', { url: 'events/{resource}/{_id}', method: 'PUT' }, true],
  ['B', undefined, false],
] as [Variant, Record<string, string> | undefined, boolean][])(
  'variant %s, archival target %j, archivalEvents %s: archival events to a REST ERP',
  (variant, archivedTarget, archivalEvents) => {
    let sim: TestSimulator;
    let simClock: FakeClock;
    let erp: FakeErp;
    let rig: AppRig;
    let app: App;

    beforeEach(async () => {
      simClock = new FakeClock(START);
      sim = await startTestSimulator({ variant, clock: simClock, seed: 5 });
      erp = await startFakeErp();
      const resources =
        archivedTarget === undefined ? {} : { singleOrder: { archived: archivedTarget } };
      rig = appRig(sim.url, variant, START, {
        erp: { adapter: 'rest', rest: { baseUrl: `${erp.url}/api`, resources, archivalEvents } },
        http: { enabled: true, port: 0, token: 'inbound-secret-6d20f4b8' },
      });
      app = await rig.open();
    });
    afterEach(async () => {
      await app?.close();
      await erp.close();
      await sim.close();
      rig.cleanup();
    });

    const pass = () => {
      simClock.advance(60_000);
      rig.clock.advance(60_000);
      return syncOnce(app, ['patient', 'article', 'integratedCare', 'singleOrder']);
    };
    const eventPath = (id: string) =>
      archivedTarget === undefined
        ? `/api/singleOrder/${id}/archived`
        : `/api/events/singleOrder/${id}`;
    const callsTo = (path: string) => erp.requests.filter((r) => r.url === path);

    const archiveAnOrder = async (): Promise<{ id: string; stamp: string }> => {
      const list = `/singleOrder?status=created&updatedAfter=${EPOCH}`;
      const order = ((await api(sim, 'GET', list)).json as Row[]).find((o) => !o.archived);
      if (order === undefined) throw new Error('the seed has no live created single order');
      const id = String(order._id);
      expect((await pass()).ok).toBe(true);
      const archived = await sim.control.patchRecord('singleOrder', id, { archived: true });
      return { id, stamp: String(archived.timestamp) };
    };

    it('makes the archival call once, with its own Idempotency-Key, across the overlap window (the archived version goes out as a record too)', async () => {
      const { id, stamp } = await archiveAnOrder();
      for (let round = 0; round < 5; round++) expect((await pass()).ok).toBe(true);

      const calls = callsTo(eventPath(id));
      expect(calls).toHaveLength(archivalEvents ? 1 : 0);
      expect(erp.stored.has(`singleOrder:${id}:${stamp}`)).toBe(true);
      expect(countUndelivered(app.store)).toBe(0);
      if (!archivalEvents) return;
      const [call] = calls;
      expect(call?.method).toBe(archivedTarget?.method ?? 'POST');
      expect(call?.headers['idempotency-key']).toBe(`singleOrder:${id}:${stamp}:archived`);
      expect(JSON.parse(call?.body ?? '{}')).toMatchObject({
        event: 'archived',
        reason: 'archived',
        resource: 'singleOrder',
        _id: id,
        version: stamp,
        archivedAt: stamp,
      });
    });

    // Only where archival events are sent: with them off there is no call to lose.
    if (archivalEvents) {
      it('sends the archival again with the same key only when its answer was lost', async () => {
        const { id, stamp } = await archiveAnOrder();
        // The archived version goes through; the archival (after it: one entity, in order) is
        // stored and its answer cut, so the daemon cannot know it arrived.
        erp.script({ kind: 'status', status: 201 }, { kind: 'storeThenReset' });
        await pass();
        expect(callsTo(eventPath(id))).toHaveLength(1);
        expect(countUndelivered(app.store)).toBe(1);
        for (let round = 0; round < 4; round++) await pass();

        const key = `singleOrder:${id}:${stamp}:archived`;
        const calls = callsTo(eventPath(id));
        expect(calls.length).toBeGreaterThanOrEqual(2);
        expect(new Set(calls.map((c) => c.headers['idempotency-key']))).toEqual(new Set([key]));
        expect([...erp.stored.keys()].filter((k) => k === key)).toHaveLength(1);
        expect(countUndelivered(app.store)).toBe(0);
      });
    }
  },
);
