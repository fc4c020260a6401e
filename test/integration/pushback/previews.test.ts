import { afterEach, describe, expect, it } from 'vitest';
import type { Variant } from '../../../src/contract/index.js';
import {
  freshJob,
  mirrorCore,
  previewOfJob,
  PUSH_BACK_KINDS,
  type NotedRequest,
  type PushBackKindName,
} from '../../../src/pushback/index.js';
import { previewJob } from '../../../src/pushback/preview/run.js';
import type { Handler, HandlerContext } from '../../../src/queue/types.js';
import { erpOrderMessage } from '../../support/pushback/erpOrderMessage.js';
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

/** The preview's context as `inbox check` builds it: the mirror answers the handler's reads. */
function previewContext(current: HandlerRig) {
  const { store, contract, clock } = current.context;
  return { store, contract, clock, reads: mirrorCore(store, contract, clock) };
}

const jobOf = (current: HandlerRig, kind: string, body: Record<string, unknown>) =>
  freshJob(kind, `${kind}:test`, body, current.context.clock.now());

/** What `inbox check` prints for a message: its kind's handler run against the noting core. */
async function planned(current: HandlerRig, kind: PushBackKindName, body: Record<string, unknown>) {
  return (await previewOfJob(jobOf(current, kind, body), previewContext(current))).requests;
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

const lines = (requests: NotedRequest[]) =>
  requests.map((r) => ('refused' in r ? `refused: ${r.refused}` : `${r.method} ${r.path}`));

/**
 * The preview `inbox check` prints is the write the handler makes: previewed first, from the
 * mirror, then the handler run against the simulator, each message twice (create, then update).
 */
describe('push-back previews say the writes the handlers make', () => {
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
    ['B', 'erpOrder', erpOrderMessage('S-1', 'K-50')],
  ] as const)('%s %s: a create, then an update of the same entity', async (variant, kind, body) => {
    const current = await started(variant);
    for (const round of ['create', 'update']) {
      const plan = await planned(current, kind, body);
      expect(lines(plan), round).toEqual(await sentBy(current, kind, body));
    }
  });

  it('resolves the patient by its customerId from the mirror, as the handler does', async () => {
    const current = await started('B');
    const note = { noteText: 'Hausbesuch', patientCustomerId: 'K-50' };
    const [request] = await planned(current, 'patientNote', note);
    const patientId = current.mirrored('patient')[0]?._id;
    expect(request?.body).toEqual({ noteText: 'Hausbesuch', patientId });
    expect(lines(await planned(current, 'patientNote', note))).toEqual(
      await sentBy(current, 'patientNote', note),
    );
  });
});

/**
 * No second model of a handler: a handler changed to write another field shows it in the
 * preview at once, and the preview stays what the changed handler sends.
 */
describe('the preview follows the handler', () => {
  const orderStatus = PUSH_BACK_KINDS.find((kind) => kind.name === 'orderStatus');
  /** The real orderStatus handler, changed to send a field more with every PATCH of an order. */
  const changed: Handler = (job, context) => {
    const client = {
      ...context.client,
      patchSingleOrder: (id: string, body: Record<string, unknown>) =>
        context.client.patchSingleOrder(id, { ...body, erpOrderNumber: 'CHANGED-1' }),
    };
    if (orderStatus === undefined) throw new Error('no orderStatus kind');
    return orderStatus.handler(job, { ...context, client } satisfies HandlerContext);
  };

  it('orderStatus: the changed field is previewed, and the preview is what it sends', async () => {
    const current = await started('B');
    const order = await current.platformRecord('singleOrder', { status: 0, salesId: 'S-9' }, true);
    const body = { orderType: 'single', id: order._id, salesId: 'S-10' };
    const job = jobOf(current, 'orderStatus', body);
    const preview = await previewJob(changed, job, previewContext(current));
    expect(preview.requests.map((request) => request.body)).toEqual([
      { salesId: 'S-10', erpOrderNumber: 'CHANGED-1' },
    ]);
    const before = (await current.sim.control.requests()).length;
    await changed(job, current.context);
    const sent = (await current.sim.control.requests())
      .slice(before)
      .filter((r) => r.method === 'PATCH');
    expect(lines(preview.requests)).toEqual(sent.map((r) => `${r.method} ${r.path}`));
  });
});
