import { afterEach, describe, expect, it } from 'vitest';
import { PermanentError } from '../../../src/shared/errors.js';
import { startHandlerRig, type HandlerRig } from '../../support/pushback/handlersRig.js';

let rig: HandlerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function article(customerNumber: string, name: string): Record<string, unknown> {
  return { customerNumber, name, packagingUnits: [{ quantity: 10, unit: 'Stk', pcn: '0815' }] };
}

/** A refusal that names a record but is not a duplicate signal. */
function unrelatedRefusal(id: string) {
  return {
    error: 'bad_request',
    message: `product group ${id} is archived`,
    problems: [`productGroupId: ${id} is archived`],
  };
}

// Spec document 1, Errors: "Article creation with a customerNumber that already exists → an
// error that carries the IDs of the existing articles". Only that signal names the record to
// update; HTTP status codes other than 403 and the error body format are "not shown".
describe('duplicate detection on create', () => {
  it('does not PUT to a UUID an unrelated article refusal names (B)', async () => {
    rig = await startHandlerRig('B');
    const other = await rig.platformRecord('article', article('ART-OTHER', 'fremd'));
    await rig.sim.control.setFault({
      path: '/article',
      method: 'POST',
      errorStatus: 400,
      errorBody: unrelatedRefusal(String(other._id)),
      times: 1,
    });
    const error = await rig.failure('article', article('ART-NEW', 'neu'));
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toContain('article customerNumber ART-NEW');
    expect(error.message).toContain('HTTP 400');
    expect(await rig.requests('PUT', '/article/')).toHaveLength(0);
    expect((await rig.stored('article', String(other._id))).name).toBe('fremd');
    expect(await rig.requests('GET', '/article/ART-NEW')).toHaveLength(1);
  });

  it('looks the customerNumber up when a refusal carries no existingIds, then PUTs (C)', async () => {
    rig = await startHandlerRig('C');
    const existing = await rig.platformRecord('article', article('ART-2', 'alt'));
    await rig.sim.control.setFault({
      path: '/article',
      method: 'POST',
      errorStatus: 409,
      errorBody: { error: 'conflict', message: 'duplicate key' },
      times: 1,
    });
    await rig.run('article', article('ART-2', 'neu'));
    expect((await rig.stored('article', String(existing._id))).name).toBe('neu');
    expect((await rig.requests('PUT', '/article/')).map((r) => r.path)).toEqual(['/article/ART-2']);
  });

  it('finds the patient by customerId in the list when a refusal carries no existingIds (B)', async () => {
    rig = await startHandlerRig('B');
    const existing = await rig.platformRecord('patient', { customerId: 'K-5', lastName: 'Alt' });
    await rig.sim.control.setFault({
      path: '/patient',
      method: 'POST',
      errorStatus: 409,
      errorBody: { error: 'conflict' },
      times: 1,
    });
    await rig.run('patient', { customerId: 'K-5', lastName: 'Neu' });
    expect((await rig.stored('patient', String(existing._id))).lastName).toBe('Neu');
    expect(await rig.requests('PATCH', `/patient/${String(existing._id)}`)).toHaveLength(1);
  });

  it('does not update the patient an unrelated refusal names (A)', async () => {
    rig = await startHandlerRig('A');
    const other = await rig.platformRecord('patient', { customerId: 'K-6', lastName: 'Fremd' });
    await rig.sim.control.setFault({
      path: '/patient',
      method: 'POST',
      errorStatus: 400,
      errorBody: unrelatedRefusal(String(other._id)),
      times: 1,
    });
    const error = await rig.failure('patient', { customerId: 'K-7', lastName: 'Neu' });
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toContain('patient customerId K-7');
    expect(await rig.requests('PUT', '/patient/')).toHaveLength(0);
    expect((await rig.stored('patient', String(other._id))).lastName).toBe('Fremd');
  });
});
