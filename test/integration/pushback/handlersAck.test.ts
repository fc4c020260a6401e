import { afterEach, describe, expect, it } from 'vitest';
import { contractFor, VARIANTS } from '../../../src/contract/index.js';
import { createHandlers } from '../../../src/pushback/index.js';
import { PermanentError } from '../../../src/shared/errors.js';
import { getMirror, getOwnWrite, transaction, upsertMirror } from '../../../src/store/index.js';
import { isOwnEcho } from '../../../src/contract/index.js';
import { startHandlerRig, type HandlerRig } from '../../support/pushback/handlersRig.js';

let rig: HandlerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

/**
 * Runs the single order's acknowledgement as the worker does up to its commit: the PATCH is
 * sent, what its success makes true is returned to be committed.
 */
function acknowledgeWithoutCommit(order: Record<string, unknown>) {
  const id = String(order._id);
  const job = {
    id: 1,
    kind: 'ack.singleOrder' as const,
    entityKey: `singleOrder:${id}`,
    payload: { resource: 'singleOrder', id, version: String(order.timestamp) },
    attempts: 0,
    createdAt: '2026-03-01T08:00:00.000Z',
  };
  if (rig === undefined) throw new Error('no handler rig started');
  return createHandlers()['ack.singleOrder']?.(job, rig.context);
}

describe.each(VARIANTS)('acknowledgements in variant %s', (variant) => {
  it.each(['singleOrder', 'directOrder'] as const)(
    'moves a %s from Created to Transmitted once, and a second run sends nothing',
    async (resource) => {
      rig = await startHandlerRig(variant);
      const order = await rig.platformRecord(resource, { status: 0, patientId: 'p-1' }, true);
      const id = String(order._id);
      const job = { resource, id, version: String(order.timestamp) };

      await rig.run(`ack.${resource}`, job);
      expect((await rig.stored(resource, id)).status).toBe(1);
      expect(getMirror(rig.store, resource, id)?.record.status).toBe(1);

      await rig.run(`ack.${resource}`, job);
      expect(await rig.requests('PATCH', `/${resource}/`)).toHaveLength(1);
    },
  );

  it('changes the mirror only in the Completion, so it commits with the job (issue 10)', async () => {
    rig = await startHandlerRig(variant);
    const order = await rig.platformRecord('singleOrder', { status: 0 }, true);
    const id = String(order._id);

    const complete = await acknowledgeWithoutCommit(order);

    expect((await rig.stored('singleOrder', id)).status).toBe(1);
    expect(getMirror(rig.store, 'singleOrder', id)?.record.status).toBe(0);
    expect(complete).toBeTypeOf('function');
    transaction(rig.store, () => complete?.());
    expect(getMirror(rig.store, 'singleOrder', id)?.record.status).toBe(1);
  });

  it('fingerprints the write against a version a pull stored while the PATCH was on its way', async () => {
    rig = await startHandlerRig(variant);
    const order = await rig.platformRecord('singleOrder', { status: 0 }, true);
    const id = String(order._id);
    rig.simClock.advance(60_000);
    // A platform user's change just before our write, which a pull brings in before our write's
    // outcome commits (and hands over to the ERP itself).
    const changed = await rig.sim.control.patchRecord('singleOrder', id, {
      deliveryNote: 'back door',
    });
    rig.simClock.advance(60_000);

    const complete = await acknowledgeWithoutCommit(order);
    upsertMirror(rig.store, 'singleOrder', { ...changed, _id: id }, String(changed.timestamp));
    transaction(rig.store, () => complete?.());

    const echo = await rig.stored('singleOrder', id);
    expect(echo).toMatchObject({ status: 1, deliveryNote: 'back door' });
    expect(isOwnEcho(getOwnWrite(rig.store, 'singleOrder', id), echo)).toBe(true);
  });

  it('sends nothing for an order the mirror shows past Created', async () => {
    rig = await startHandlerRig(variant);
    const order = await rig.platformRecord('singleOrder', { status: 3 }, true);
    await rig.run('ack.singleOrder', { resource: 'singleOrder', id: order._id, version: 'v' });
    expect(await rig.requests('PATCH', '/singleOrder/')).toHaveLength(0);
    expect((await rig.stored('singleOrder', String(order._id))).status).toBe(3);
  });

  it('refuses an order that is not in the mirror, naming it', async () => {
    rig = await startHandlerRig(variant);
    const order = await rig.platformRecord('singleOrder', { status: 0 });
    const error = await rig.failure('ack.singleOrder', { resource: 'singleOrder', id: order._id });
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toContain(String(order._id));
    expect(await rig.requests('PATCH', '/singleOrder/')).toHaveLength(0);
  });
});

describe.each(['A', 'B'] as const)('integrated care acknowledgement in variant %s', (variant) => {
  it('moves seriesStatus 0 to 1 once', async () => {
    rig = await startHandlerRig(variant);
    const patient = await rig.platformRecord('patient', { lastName: 'Test', regionId: 'r-1' });
    const care = await rig.platformRecord(
      'integratedCare',
      { patientId: patient._id, therapyId: 1, seriesStatus: 0, status: 1 },
      true,
    );
    const id = String(care._id);
    await rig.run('ack.integratedCare', { resource: 'integratedCare', id, version: 'v' });
    expect((await rig.stored('integratedCare', id)).seriesStatus).toBe(1);
    await rig.run('ack.integratedCare', { resource: 'integratedCare', id, version: 'v' });
    expect(await rig.requests('PATCH', '/integratedCare/')).toHaveLength(1);
  });

  // SeriesStatus "Value names and transitions: not shown" (spec document 1): under
  // `ack.integratedCare: none` a job queued before the switch sends nothing.
  it('sends nothing under ack.integratedCare none', async () => {
    rig = await startHandlerRig(variant);
    const care = await rig.platformRecord('integratedCare', { seriesStatus: 0 }, true);
    const id = String(care._id);
    const contract = contractFor(variant, {}, { integratedCareAck: 'none' });
    const handler = createHandlers()['ack.integratedCare'];
    const job = {
      id: 1,
      kind: 'ack.integratedCare' as const,
      entityKey: `integratedCare:${id}`,
      payload: { resource: 'integratedCare', id, version: 'v' },
      attempts: 0,
      createdAt: '2026-03-01T08:00:00.000Z',
    };
    await handler?.(job, { ...rig.context, contract });
    expect(await rig.requests('PATCH', '/integratedCare/')).toHaveLength(0);
    expect((await rig.stored('integratedCare', id)).seriesStatus).toBe(0);
  });
});

describe('integrated care acknowledgement in variant C', () => {
  it('is refused without a request, naming the variants that have it', async () => {
    rig = await startHandlerRig('C');
    const care = await rig.platformRecord('integratedCare', { seriesStatus: 0 }, true);
    const error = await rig.failure('ack.integratedCare', {
      resource: 'integratedCare',
      id: care._id,
    });
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toMatch(/read-only in platform variant C \(only A and B offer/);
    expect(await rig.requests('PATCH', '/integratedCare/')).toHaveLength(0);
  });
});
