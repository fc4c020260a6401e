import { afterEach, describe, expect, it } from 'vitest';
import type { Variant } from '../../../src/contract/index.js';
import {
  planOf,
  plannedRequest,
  type PlannedRequest,
  type PushBackKindName,
} from '../../../src/pushback/index.js';
import { startHandlerRig, type HandlerRig } from '../../support/pushback/handlersRig.js';

let rig: HandlerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

async function started(variant: Variant): Promise<HandlerRig> {
  rig = await startHandlerRig(variant);
  await rig.platformRecord(
    'patient',
    { customerId: 'K-50', lastName: 'Muster', regionId: 'r-1' },
    true,
  );
  return rig;
}

/** What `inbox check` prints for a message: its kind's plan, through the client's contract check. */
function planned(current: HandlerRig, kind: PushBackKindName, body: Record<string, unknown>) {
  const message = { kind, source: 'file' as const, name: 'x.json', sha256: '', body };
  const plan = planOf(message, { store: current.store, contract: current.context.contract });
  return plan.writes.map((write) => plannedRequest(current.context.client.contract, write));
}

/** The writes the handler then sent, as `METHOD /path?query`. */
async function sentBy(current: HandlerRig, kind: PushBackKindName, body: Record<string, unknown>) {
  const before = (await current.sim.control.requests()).length;
  await current.run(kind, body);
  return (await current.sim.control.requests())
    .slice(before)
    .filter((r) => WRITES.has(r.method))
    .map((r) => {
      const query = new URLSearchParams(r.query).toString();
      return `${r.method} ${r.path}${query === '' ? '' : `?${query}`}`;
    });
}

const lines = (requests: PlannedRequest[]) =>
  requests.map((r) => ('refused' in r ? `refused: ${r.refused}` : `${r.method} ${r.path}`));

/**
 * The plan `inbox check` prints is the write the handler makes: planned first, from the same
 * mirror, then the handler run against the simulator, each message twice (create, then update).
 */
describe('push-back plans say the writes the handlers make', () => {
  it.each([
    [
      'B',
      'article',
      {
        customerNumber: 'ART-1',
        name: 'Kompresse',
        packagingUnits: [{ quantity: 10, unit: 'Stk' }],
      },
    ],
    [
      'A',
      'article',
      {
        customerNumber: 'ART-2',
        name: 'Kompresse',
        packagingUnits: [{ quantity: 10, unit: 'Stk' }],
      },
    ],
    ['C', 'device', { serialNumber: 'SN-1', description: 'Pumpe', patientCustomerId: 'K-50' }],
    [
      'B',
      'erpOrder',
      {
        salesId: 'S-1',
        patientCustomerId: 'K-50',
        outboundDate: '2026-03-02T10:00:00.000Z',
        deliveryAddress: { name: 'Home', address: 'Weg 1', postalCode: '10115', city: 'Berlin' },
        erpOrderedArticleLines: [{ articleId: 'a-1', quantity: 2, deliveredQuantity: 2 }],
        trackingInfo: [{ trackingCode: 'T-1' }],
        annotation: '',
        prescriptionStatus: 'requested',
        trackingLink: '',
        therapyId: 3,
        completed: true,
      },
    ],
  ] as const)('%s %s: a create, then an update of the same entity', async (variant, kind, body) => {
    const current = await started(variant);
    for (const round of ['create', 'update']) {
      const plan = planned(current, kind, body);
      expect(lines(plan), round).toEqual(await sentBy(current, kind, body));
    }
  });

  it('resolves the patient by its customerId from the mirror, as the handler does', async () => {
    const current = await started('B');
    const note = { noteText: 'Hausbesuch', patientCustomerId: 'K-50' };
    const [request] = planned(current, 'patientNote', note);
    const patientId = current.mirrored('patient')[0]?._id;
    expect(request?.body).toEqual({ noteText: 'Hausbesuch', patientId });
    expect(lines(planned(current, 'patientNote', note))).toEqual(
      await sentBy(current, 'patientNote', note),
    );
  });
});
