import { afterEach, describe, expect, it } from 'vitest';
import { NOT_KNOWN_GRACE_ATTEMPTS } from '../../../src/pushback/index.js';
import { PermanentError, TransientError } from '../../../src/shared/errors.js';
import { getMirror } from '../../../src/store/index.js';
import { startHandlerRig, type HandlerRig } from '../../support/pushback/handlersRig.js';

let rig: HandlerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

describe('orderStatus push-back', () => {
  it('patches a single order found by _id with status, salesId, ERP number and tracking', async () => {
    rig = await startHandlerRig('B');
    const order = await rig.platformRecord('singleOrder', { status: 1 }, true);
    const id = String(order._id);
    const trackingInfo = [{ trackingCode: 'TC-1', trackingLink: 'https://track.example/TC-1' }];
    await rig.run('orderStatus', {
      orderType: 'single',
      id,
      status: 4,
      salesId: 'SO-100',
      erpOrderNumber: 'ERP-9',
      trackingInfo,
    });
    const stored = await rig.stored('singleOrder', id);
    expect(stored).toMatchObject({ status: 4, salesId: 'SO-100', erpOrderNumber: 'ERP-9' });
    expect(stored.trackingInfo).toEqual(trackingInfo);
    expect(getMirror(rig.store, 'singleOrder', id)?.record.status).toBe(4);
  });

  it('finds a direct order by salesId through the mirror (variant C)', async () => {
    rig = await startHandlerRig('C');
    const order = await rig.platformRecord('directOrder', { status: 1, salesId: 'D-7' }, true);
    await rig.run('orderStatus', { orderType: 'direct', salesId: 'D-7', status: 3 });
    expect((await rig.stored('directOrder', String(order._id))).status).toBe(3);
    const patches = await rig.requests('PATCH', '/directOrder/');
    expect(patches.map((p) => p.path)).toEqual([`/directOrder/${String(order._id)}`]);
  });

  it('refuses a forbidden transition before sending, with the reason', async () => {
    rig = await startHandlerRig('B');
    const order = await rig.platformRecord('singleOrder', { status: 4 }, true);
    const error = await rig.failure('orderStatus', {
      orderType: 'single',
      id: order._id,
      status: -3,
    });
    expect(error).toBeInstanceOf(PermanentError);
    expect((error as PermanentError).code).toBe('FORBIDDEN_TRANSITION');
    expect(error.message).toContain(
      'Sent → Pending is not allowed; only Created may become Pending',
    );
    expect(error.message).toContain(String(order._id));
    expect(await rig.requests('PATCH', '/singleOrder/')).toHaveLength(0);
    expect((await rig.stored('singleOrder', String(order._id))).status).toBe(4);
  });

  it('sends nothing when the order already has the status and the rest', async () => {
    rig = await startHandlerRig('B');
    const order = await rig.platformRecord(
      'singleOrder',
      { status: 3, erpOrderNumber: 'E-1' },
      true,
    );
    await rig.run('orderStatus', {
      orderType: 'single',
      id: order._id,
      status: 3,
      erpOrderNumber: 'E-1',
    });
    expect(await rig.requests('PATCH', '/singleOrder/')).toHaveLength(0);
  });

  it('leaves an unchanged status out when something else changes', async () => {
    rig = await startHandlerRig('B');
    // Pending → Pending is itself forbidden, so sending the status again would be refused.
    const order = await rig.platformRecord('singleOrder', { status: -3 }, true);
    await rig.run('orderStatus', {
      orderType: 'single',
      id: order._id,
      status: -3,
      erpOrderNumber: 'E-2',
    });
    const stored = await rig.stored('singleOrder', String(order._id));
    expect(stored).toMatchObject({ status: -3, erpOrderNumber: 'E-2' });
  });

  it('retries an unknown salesId a few times, then dead-letters it with the reason', async () => {
    rig = await startHandlerRig('B');
    const payload = { orderType: 'single', salesId: 'NOPE-1', status: 3 };
    const early = await rig.failure('orderStatus', payload, 0);
    expect(early).toBeInstanceOf(TransientError);
    expect((early as TransientError).retryAfterMs).toBeGreaterThan(0);
    const late = await rig.failure('orderStatus', payload, NOT_KNOWN_GRACE_ATTEMPTS);
    expect(late).toBeInstanceOf(PermanentError);
    expect(late.message).toContain('no single order with salesId NOPE-1 is known');
    expect(late.message).toContain('pulled first');
    expect(await rig.requests('PATCH', '/singleOrder/')).toHaveLength(0);
  });

  it('does not change the status of an order it never pulled', async () => {
    rig = await startHandlerRig('B');
    const order = await rig.platformRecord('singleOrder', { status: 4 });
    const payload = { orderType: 'single', id: order._id, status: -3 };
    const error = await rig.failure('orderStatus', payload, NOT_KNOWN_GRACE_ATTEMPTS);
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toContain('transition table');
    expect(await rig.requests('PATCH', '/singleOrder/')).toHaveLength(0);
  });
});
