import { afterEach, describe, expect, it } from 'vitest';
import type { ResourceName, Variant } from '../../../src/contract/index.js';
import { getStoredJob, triedCreatesOf } from '../../../src/store/index.js';
import { closePasses, once, startPass, type Pass } from '../../support/pushback/passRig.js';

/**
 * #23: a create of ours whose answer was lost (the platform made the record, the connection was
 * cut before the answer) has no `_id` to know its record by. The pull that lists the record
 * must still know it as ours and not hand the ERP its own record back as the platform's; a
 * platform user's change to it since is handed over as any change is. `resetAfterProcessing`
 * makes the record and cuts the connection before any answer.
 */
afterEach(closePasses);

interface Made {
  pass: Pass;
  job: number;
  id: string;
}

const article = {
  customerNumber: 'ART-7',
  name: 'Einmalhandschuhe',
  articleNumber: 'ART-7',
  packagingUnits: [{ unit: 'Stk', quantity: 100 }],
};
const patient = { customerId: 'K-77', lastName: 'Muster', firstName: 'Erika', regionId: 'r-1' };

/** The one record of `resource` on the platform whose `field` is `value`. */
function onlyOne(pass: Pass, resource: ResourceName, field: string, value: unknown): string {
  const found = pass.onPlatform(resource).filter((record) => record[field] === value);
  expect(found).toHaveLength(1);
  return String(found[0]?._id);
}

/** Queues the create, loses its answer once, and runs the pass: the record exists, unknown to us. */
async function lostCreate(
  resource: 'article' | 'patient',
  path: string,
  payload: Record<string, unknown>,
  key: string,
  variant: Variant = 'B',
): Promise<Made> {
  const pass = await startPass(variant);
  await once(pass, 'POST', path, { resetAfterProcessing: true });
  const job = pass.queue(resource, payload);
  expect(await pass.run()).toEqual({ ran: 1, waiting: 1 });
  expect(triedCreatesOf(pass.rig.store, resource)).toHaveLength(1);
  return { pass, job, id: onlyOne(pass, resource, key, payload[key]) };
}

/** Two pulls: under loop suppression `next` the first leaves our create out, the second lists it. */
async function pullTwice(pass: Pass, resource: ResourceName): Promise<void> {
  pass.rig.simClock.advance(60_000);
  await pass.pull(resource);
  await pass.pull(resource);
}

describe('a create whose answer was lost, listed back by a pull', () => {
  it.each([
    ['article', 'A', '/article', article, 'customerNumber'],
    ['article', 'B', '/article', article, 'customerNumber'],
    ['article', 'C', '/article', article, 'customerNumber'],
    ['patient', 'A', '/patient', patient, 'customerId'],
    ['patient', 'B', '/patient', patient, 'customerId'],
    ['patient', 'C', '/patient', patient, 'customerId'],
  ] as const)(
    '%s (%s): the pull before the retry knows it as ours; the retry takes it; nothing handed to the ERP',
    async (resource, variant, path, payload: Record<string, unknown>, key) => {
      const { pass, job, id } = await lostCreate(resource, path, payload, key, variant);

      await pullTwice(pass, resource);
      expect(pass.rig.mirrored(resource).map((r) => r._id)).toContain(id);
      expect(pass.handedOver(resource, id)).toEqual([]);
      expect(triedCreatesOf(pass.rig.store, resource)).toEqual([]);

      // The pass also runs the pull's hand-overs of the seed records (no ERP here: they fail).
      expect((await pass.run()).waiting).toBe(0);
      expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
      await pullTwice(pass, resource);
      expect(pass.handedOver(resource, id)).toEqual([]);
      expect(onlyOne(pass, resource, key, payload[key])).toBe(id);
    },
  );

  it.each([
    ['article', '/article', article, 'customerNumber'],
    ['patient', '/patient', patient, 'customerId'],
  ] as const)(
    '%s (B): the retry before the pull; the note of the tried create goes with its answer',
    async (resource, path, payload: Record<string, unknown>, key) => {
      const { pass, job, id } = await lostCreate(resource, path, payload, key);

      expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
      expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
      expect(triedCreatesOf(pass.rig.store, resource)).toEqual([]);
      expect(pass.handedOver(resource, id)).toEqual([]);
      await pullTwice(pass, resource);
      expect(pass.handedOver(resource, id)).toEqual([]);
    },
  );

  it("patient (B): a platform user's change to the record since is handed to the ERP", async () => {
    const { pass, id } = await lostCreate('patient', '/patient', patient, 'customerId');
    pass.rig.simClock.advance(60_000);
    await pass.rig.sim.control.patchRecord('patient', id, { lastName: 'Musterfrau' });

    await pullTwice(pass, 'patient');
    expect(pass.handedOver('patient', id)).toHaveLength(1);
    expect(triedCreatesOf(pass.rig.store, 'patient')).toHaveLength(1);
  });

  it('patientNote (B): dead as "may already exist", and its note listed back is not handed over', async () => {
    const pass = await startPass('B');
    const patientOfNote = { customerId: 'K-50', lastName: 'M', regionId: 'r-1' };
    await pass.rig.platformRecord('patient', patientOfNote, true);
    await once(pass, 'POST', '/patientNote', { resetAfterProcessing: true });
    const job = pass.queue('patientNote', {
      noteText: 'Bitte klingeln',
      patientCustomerId: 'K-50',
    });
    expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
    expect(getStoredJob(pass.rig.store, job)?.state).toBe('dead');
    const id = onlyOne(pass, 'patientNote', 'noteText', 'Bitte klingeln');

    await pullTwice(pass, 'patientNote');
    expect(pass.handedOver('patientNote', id)).toEqual([]);
    expect(pass.rig.mirrored('patientNote').map((r) => r._id)).toContain(id);
  });
});

// Spec document 1, rule 2, read as "until someone else changes it": a record whose last change
// is ours is never listed. One the ERP changes by its own key before any pull brought it holds
// more than the ERP sent; the write's answer is the only version that shows it.
describe('a record the ERP changes by its own key before any pull brought it', () => {
  it.each(['next', 'until-changed'] as const)(
    "patient (B, loop suppression %s): the answer, with a platform user's edits, is handed over once",
    async (loopSuppression) => {
      const pass = await startPass('B', loopSuppression);
      const made = { ...patient, phone: '0221 555' };
      const id = String((await pass.rig.platformRecord('patient', made))._id);
      pass.rig.simClock.advance(60_000);
      const job = pass.queue('patient', { customerId: 'K-77', mobilePhone: '0170 1' });

      expect((await pass.run()).waiting).toBe(0);
      expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
      expect(pass.handedOver('patient', id)).toHaveLength(1);
      await pullTwice(pass, 'patient');
      expect(pass.handedOver('patient', id)).toHaveLength(1);
    },
  );
});
