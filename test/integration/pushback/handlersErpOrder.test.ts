import { afterEach, describe, expect, it } from 'vitest';
import { NOT_KNOWN_GRACE_ATTEMPTS } from '../../../src/pushback/index.js';
import { PermanentError, TransientError } from '../../../src/shared/errors.js';
import { startHandlerRig, type HandlerRig } from '../../support/pushback/handlersRig.js';
import { erpOrderMessage } from '../../support/pushback/erpOrderMessage.js';

let rig: HandlerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function erpOrder(salesId: string, trackingCode: string): Record<string, unknown> {
  return erpOrderMessage(salesId, 'K-1000', trackingCode);
}

async function withPatient(current: HandlerRig): Promise<string> {
  const patient = await current.platformRecord(
    'patient',
    { customerId: 'K-1000', lastName: 'Muster', regionId: 'r-1' },
    true,
  );
  return String(patient._id);
}

function onPlatform(current: HandlerRig, salesId: string) {
  return current.sim.state.store.findBy('demo', 'erpOrder', 'salesId', salesId);
}

describe('erpOrder push-back', () => {
  it('POSTs a new salesId with the patient resolved, then PUTs the next report of it (B)', async () => {
    rig = await startHandlerRig('B');
    const patientId = await withPatient(rig);
    await rig.run('erpOrder', erpOrder('S-1', 'T-1'));
    await rig.run('erpOrder', erpOrder('S-1', 'T-2'));

    const stored = onPlatform(rig, 'S-1');
    expect(stored).toHaveLength(1);
    const record = await rig.stored('erpOrder', String(stored[0]?.record._id));
    expect(record).toMatchObject({ patientId, trackingInfo: [{ trackingCode: 'T-2' }] });
    expect(record).not.toHaveProperty('patientCustomerId');
    expect(await rig.requests('POST', '/erpOrder')).toHaveLength(1);
    expect((await rig.requests('PUT', '/erpOrder/')).map((r) => r.path)).toEqual(['/erpOrder/S-1']);
  });

  it('turns the POST refusal of an existing salesId into a PUT where there is no GET (A)', async () => {
    rig = await startHandlerRig('A');
    const patientId = await withPatient(rig);
    await rig.platformRecord('erpOrder', { ...erpOrder('S-2', 'T-0'), patientId });
    await rig.run('erpOrder', erpOrder('S-2', 'T-9'));

    const stored = onPlatform(rig, 'S-2');
    expect(stored).toHaveLength(1);
    expect(stored[0]?.record.trackingInfo).toEqual([{ trackingCode: 'T-9' }]);
    expect((await rig.requests('POST', '/erpOrder')).map((r) => r.status)).toEqual([409]);
    expect(await rig.requests('PUT', '/erpOrder/S-2')).toHaveLength(1);
  });

  it('asks the platform for the salesId first where it can, and PUTs without a POST (C)', async () => {
    rig = await startHandlerRig('C');
    const patientId = await withPatient(rig);
    await rig.platformRecord('erpOrder', { ...erpOrder('S-3', 'T-0'), patientId });
    await rig.run('erpOrder', erpOrder('S-3', 'T-5'));

    expect(onPlatform(rig, 'S-3')[0]?.record.trackingInfo).toEqual([{ trackingCode: 'T-5' }]);
    expect(await rig.requests('GET', '/erpOrder/S-3')).toHaveLength(1);
    expect(await rig.requests('POST', '/erpOrder')).toHaveLength(0);
  });

  it('waits for an unknown patient a few times, then refuses with the reason', async () => {
    rig = await startHandlerRig('B');
    const early = await rig.failure('erpOrder', erpOrder('S-4', 'T-1'), 0);
    expect(early).toBeInstanceOf(TransientError);
    const late = await rig.failure('erpOrder', erpOrder('S-4', 'T-1'), NOT_KNOWN_GRACE_ATTEMPTS);
    expect(late).toBeInstanceOf(PermanentError);
    expect(late.message).toContain('ERP order salesId S-4: no patient with customerId K-1000');
    expect(await rig.requests('POST', '/erpOrder')).toHaveLength(0);
  });

  it('refuses a report without outboundDate before sending, naming the salesId', async () => {
    rig = await startHandlerRig('B');
    await withPatient(rig);
    const incomplete = { ...erpOrder('S-5', 'T-1'), outboundDate: undefined };
    const error = await rig.failure('erpOrder', incomplete);
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toMatch(/^ERP order salesId S-5: outboundDate is required/);
    expect(await rig.sim.control.requests()).toHaveLength(0);
  });

  // Spec document 2, POST /erpOrder: "In variant B the body schema marks every field required."
  it('refuses a partial ERP order in B before sending, naming every missing field', async () => {
    rig = await startHandlerRig('B');
    await withPatient(rig);
    const { annotation, trackingLink, completed, ...partial } = erpOrder('S-6', 'T-1');
    expect([annotation, trackingLink, completed]).toEqual(['', '', true]);
    const error = await rig.failure('erpOrder', partial);
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toMatch(/^ERP order salesId S-6: /);
    for (const field of ['annotation', 'trackingLink', 'completed']) {
      expect(error.message).toContain(`${field} is required`);
    }
    expect(await rig.requests('POST', '/erpOrder')).toHaveLength(0);
    expect(await rig.requests('GET', '/erpOrder')).toHaveLength(0);
  });

  it('sends the same partial ERP order in A, whose contract asks only the rule fields', async () => {
    rig = await startHandlerRig('A');
    await withPatient(rig);
    const { annotation, trackingLink, completed, ...partial } = erpOrder('S-7', 'T-1');
    expect([annotation, trackingLink, completed]).toEqual(['', '', true]);
    await rig.run('erpOrder', partial);
    expect(onPlatform(rig, 'S-7')).toHaveLength(1);
  });
});
