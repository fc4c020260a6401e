import { afterEach, describe, expect, it } from 'vitest';
import { PermanentError } from '../../../src/shared/errors.js';
import { findMirrorBy } from '../../../src/store/index.js';
import { api } from '../../support/simulator.js';
import { startHandlerRig, type HandlerRig } from '../../support/pushback/handlersRig.js';

let rig: HandlerRig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

async function patientOf(current: HandlerRig, customerId = 'K-50'): Promise<string> {
  const patient = await current.platformRecord(
    'patient',
    { customerId, lastName: 'Muster', regionId: 'r-1' },
    true,
  );
  return String(patient._id);
}

describe('device push-back', () => {
  it('POSTs a device without _id, remembers its _id, and PUTs the next message (C)', async () => {
    rig = await startHandlerRig('C');
    const patientId = await patientOf(rig);
    const device = { serialNumber: 'SN-1', description: 'Pumpe', patientCustomerId: 'K-50' };
    await rig.run('device', device);
    const id = findMirrorBy(rig.store, 'device', 'serialNumber', 'SN-1')[0]?.id ?? '';
    expect(id).not.toBe('');
    await rig.run('device', { ...device, description: 'Pumpe, gewartet' });

    expect(await rig.stored('device', id)).toMatchObject({
      patientId,
      serialNumber: 'SN-1',
      description: 'Pumpe, gewartet',
    });
    expect(await rig.requests('POST', '/device')).toHaveLength(1);
    expect((await rig.requests('PUT', '/device/')).map((r) => r.path)).toEqual([`/device/${id}`]);
  });
});

describe('attachment push-back (B)', () => {
  const attachment = {
    data: Buffer.from('%PDF-1.4 test').toString('base64'),
    filename: 'rezept.pdf',
    mime: 'application/pdf',
    metadata: { type: 1 },
    patientCustomerId: 'K-50',
  };

  it('creates the attachment for the patient the ERP names', async () => {
    rig = await startHandlerRig('B');
    const patientId = await patientOf(rig);
    await rig.run('attachment', attachment);
    const posts = await rig.requests('POST', '/attachment');
    expect(posts.map((p) => p.status)).toEqual([201]);
    // Another client of the tenant sees what our key created.
    const listed = await api(rig.sim, 'GET', '/attachment', { key: 'demo-key-2' });
    const created = (listed.json as Array<Record<string, unknown>>).filter(
      (a) => a.filename === 'rezept.pdf',
    );
    expect(created).toHaveLength(1);
    expect(created[0]?.metadata).toMatchObject({ patientId, type: 1 });
  });

  it('refuses for good when the key may not create attachments', async () => {
    rig = await startHandlerRig('B', { apiKey: 'demo-key-2' });
    await patientOf(rig);
    const error = await rig.failure('attachment', attachment);
    expect(error).toBeInstanceOf(PermanentError);
    expect((error as PermanentError).status).toBe(403);
    expect(error.message).toContain('attachment rezept.pdf for patient');
    expect(error.message).toContain('this API key may not create attachments');
  });
});

describe('product group push-back (B)', () => {
  it('creates a group under a parent of the right level, and renames it', async () => {
    rig = await startHandlerRig('B');
    const top = await rig.platformRecord('productGroup', { name: 'OWG', type: 0 }, true);
    await rig.run('productGroup', { name: 'WG 1', type: 1, parentId: top._id });
    const created = rig.mirrored('productGroup').find((g) => g.name === 'WG 1');
    expect(created).toMatchObject({ type: 1, parentId: top._id });
    await rig.run('productGroup', { _id: created?._id, name: 'WG eins', type: 1 });
    expect((await rig.stored('productGroup', String(created?._id))).name).toBe('WG eins');
  });

  it('refuses a group on the wrong level before sending', async () => {
    rig = await startHandlerRig('B');
    const top = await rig.platformRecord('productGroup', { name: 'OWG', type: 0 });
    const error = await rig.failure('productGroup', { name: 'falsch', type: 0, parentId: top._id });
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toContain('a type 0 (OWG) group has no parent');
    expect(await rig.requests('POST', '/productGroup')).toHaveLength(0);
  });

  // Spec document 2, PATCH /productGroup/{id}: "body `{name}` (required); only the name may change."
  it('refuses a message that would change more than the name of a known group', async () => {
    rig = await startHandlerRig('B');
    const group = await rig.platformRecord(
      'productGroup',
      { name: 'OWG', type: 0, description: 'alt' },
      true,
    );
    const id = String(group._id);
    const error = await rig.failure('productGroup', {
      _id: id,
      name: 'OWG neu',
      type: 0,
      description: 'neu',
    });
    expect(error).toBeInstanceOf(PermanentError);
    expect(error.message).toMatch(new RegExp(`^product group ${id}: description cannot change`));
    expect(await rig.requests('PATCH', '/productGroup/')).toHaveLength(0);
  });
});

describe('contract push-back (A)', () => {
  it.each(['contractArticleGroup', 'insuranceContract'] as const)(
    'creates a %s, then replaces it by _id',
    async (resource) => {
      rig = await startHandlerRig('A');
      await rig.run(resource, { name: 'Vertrag 1' });
      const [entry] = rig.mirrored(resource);
      const id = String(entry?._id);
      expect((await rig.stored(resource, id)).name).toBe('Vertrag 1');
      await rig.run(resource, { _id: id, name: 'Vertrag 1b' });
      expect((await rig.stored(resource, id)).name).toBe('Vertrag 1b');
      expect(await rig.requests('PUT', `/${resource}/${id}`)).toHaveLength(1);
    },
  );
});

describe('notes and care arrangements', () => {
  it('creates a note for the patient the ERP names, and patches it by _id (A)', async () => {
    rig = await startHandlerRig('A');
    const patientId = await patientOf(rig);
    const note = { noteText: 'Lieferung an Nachbarn', patientCustomerId: 'K-50', status: 1 };
    await rig.run('patientNote', note);
    const [created] = rig.mirrored('patientNote');
    expect(created).toMatchObject({ patientId, noteText: note.noteText });
    expect(await rig.stored('patientNote', String(created?._id))).not.toHaveProperty(
      'patientCustomerId',
    );
    await rig.run('patientNote', { _id: created?._id, noteText: 'geändert' });
    expect((await rig.stored('patientNote', String(created?._id))).noteText).toBe('geändert');
  });

  it('creates a care arrangement and patches it by _id (B)', async () => {
    rig = await startHandlerRig('B');
    const patientId = await patientOf(rig);
    await rig.run('integratedCare', { patientId, therapyId: 3, isInitialCare: true });
    const [post] = await rig.requests('POST', '/integratedCare');
    expect(post?.status).toBe(201);
    const [care] = rig.mirrored('integratedCare');
    expect(await rig.stored('integratedCare', String(care?._id))).toMatchObject({
      patientId,
      therapyId: 3,
    });
    await rig.run('integratedCare', { _id: care?._id, annotation: 'neu' });
    expect((await rig.stored('integratedCare', String(care?._id))).annotation).toBe('neu');
  });
});

describe('a write the variant does not offer', () => {
  it.each([
    ['A', 'productGroup', { name: 'G', type: 0 }, /only variant B offers it/],
    [
      'C',
      'attachment',
      { filename: 'f', data: 'eA==', mime: 'text/plain', metadata: { type: 1, patientId: 'p' } },
      /only variant B offers it/,
    ],
    [
      'C',
      'integratedCare',
      { patientId: 'p', therapyId: 1, isInitialCare: true },
      /only variants A and B offer it/,
    ],
    ['B', 'insuranceContract', { name: 'V' }, /only variant A offers it/],
  ] as const)(
    'variant %s refuses %s, naming the variants that have it',
    async (variant, kind, payload, named) => {
      rig = await startHandlerRig(variant);
      const error = await rig.failure(kind, { ...payload });
      expect(error).toBeInstanceOf(PermanentError);
      expect((error as PermanentError).code).toBe('CONTRACT_REFUSAL');
      expect(error.message).toMatch(named);
      expect(await rig.sim.control.requests()).toHaveLength(0);
    },
  );
});
