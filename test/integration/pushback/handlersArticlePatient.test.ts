import { afterEach, describe, expect, it } from 'vitest';
import { PermanentError } from '../../../src/shared/errors.js';
import { findMirrorBy } from '../../../src/store/index.js';
import { startHandlerRig, type HandlerRig } from '../../support/pushback/handlersRig.js';

let rig: HandlerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

function article(customerNumber: string, name: string): Record<string, unknown> {
  return { customerNumber, name, packagingUnits: [{ quantity: 10, unit: 'Stk', pcn: '0815' }] };
}

function articlesOnPlatform(current: HandlerRig, customerNumber: string) {
  return current.sim.state.store
    .findBy('demo', 'article', 'customerNumber', customerNumber)
    .map((s) => s.record);
}

describe('article push-back', () => {
  it('POSTs a new article, then PUTs the next message about it (B)', async () => {
    rig = await startHandlerRig('B');
    await rig.run('article', article('ART-1', 'Verband'));
    await rig.run('article', article('ART-1', 'Verband groß'));
    const stored = articlesOnPlatform(rig, 'ART-1');
    expect(stored.map((a) => a.name)).toEqual(['Verband groß']);
    expect((await rig.requests('PUT', '/article/')).map((r) => r.path)).toEqual([
      `/article/${String(stored[0]?._id)}`,
    ]);
  });

  it.each([
    ['B', (id: string) => `/article/${id}`],
    ['C', () => '/article/ART-2'],
  ] as const)(
    'turns a duplicate customerNumber into a PUT of the existing article (%s)',
    async (variant, putPath) => {
      rig = await startHandlerRig(variant);
      const existing = await rig.platformRecord('article', article('ART-2', 'alt'));
      await rig.run('article', article('ART-2', 'neu'));
      expect(articlesOnPlatform(rig, 'ART-2').map((a) => a.name)).toEqual(['neu']);
      expect((await rig.requests('POST', '/article')).map((r) => r.status)).toEqual([409]);
      expect((await rig.requests('PUT', '/article/')).map((r) => r.path)).toEqual([
        putPath(String(existing._id)),
      ]);
      expect(findMirrorBy(rig.store, 'article', 'customerNumber', 'ART-2')[0]?.id).toBe(
        existing._id,
      );
    },
  );

  it('fills the articleNumber variant A requires from the customerNumber', async () => {
    rig = await startHandlerRig('A');
    await rig.run('article', article('ART-3', 'Pflaster'));
    expect(articlesOnPlatform(rig, 'ART-3')[0]?.articleNumber).toBe('ART-3');
  });

  it('refuses an article without packaging units before sending (A)', async () => {
    rig = await startHandlerRig('A');
    const error = await rig.failure('article', { ...article('ART-4', 'x'), packagingUnits: [] });
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toContain(
      'article customerNumber ART-4: needs at least one packaging unit',
    );
    expect(await rig.requests('POST', '/article')).toHaveLength(0);
  });
});

describe('patient push-back', () => {
  const careGiver = { firstName: 'Eva', lastName: 'Sohn', role: 'daughter' };

  it('POSTs a new patient, then PATCHes it by customerId with care giver removals (B)', async () => {
    rig = await startHandlerRig('B');
    await rig.run('patient', { customerId: 'K-1', lastName: 'Alt', careGivers: [careGiver] });
    const id = findMirrorBy(rig.store, 'patient', 'customerId', 'K-1')[0]?.id ?? '';
    const created = await rig.stored('patient', id);
    const givers = created.careGivers as Array<Record<string, unknown>>;
    expect(givers).toHaveLength(1);

    await rig.run('patient', {
      customerId: 'K-1',
      lastName: 'Neu',
      careGivers: [{ _id: givers[0]?._id, toDelete: true }],
    });
    const updated = await rig.stored('patient', id);
    expect(updated).toMatchObject({ lastName: 'Neu', careGivers: [] });
    expect(await rig.requests('POST', '/patient')).toHaveLength(1);
    expect((await rig.requests('PATCH', '/patient/')).map((r) => r.path)).toEqual([
      `/patient/${id}`,
    ]);
  });

  it('finds the patient through the customer mapping and keeps what the ERP does not send (C)', async () => {
    rig = await startHandlerRig('C');
    const existing = await rig.platformRecord('patient', {
      customerId: 'K-2',
      lastName: 'Alt',
      fieldNurseId: 'nurse-1',
    });
    await rig.run('patient', { customerId: 'K-2', lastName: 'Neu' });
    const stored = await rig.stored('patient', String(existing._id));
    expect(stored).toMatchObject({ lastName: 'Neu', fieldNurseId: 'nurse-1', customerId: 'K-2' });
    expect(await rig.requests('GET', '/patient/customerMapping')).toHaveLength(1);
    expect(await rig.requests('POST', '/patient')).toHaveLength(0);
    expect(await rig.requests('PUT', `/patient/${String(existing._id)}`)).toHaveLength(1);
  });

  it('updates the existing patient when the platform refuses a second customerId (A)', async () => {
    rig = await startHandlerRig('A');
    const existing = await rig.platformRecord('patient', { customerId: 'K-3', lastName: 'Alt' });
    await rig.run('patient', { customerId: 'K-3', lastName: 'Neu' });
    expect((await rig.stored('patient', String(existing._id))).lastName).toBe('Neu');
    expect(rig.sim.state.store.findBy('demo', 'patient', 'customerId', 'K-3')).toHaveLength(1);
  });
});
