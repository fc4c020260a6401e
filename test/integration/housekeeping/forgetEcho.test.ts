import { afterEach, describe, expect, it } from 'vitest';
import { erasePatient } from '../../../src/housekeeping/index.js';
import { getMirror, listStoredJobs } from '../../../src/store/index.js';
import { closePasses, startPass, type Pass } from '../../support/pushback/passRig.js';

/**
 * Issue 38: after `forget`, nothing of ours brings a patient back. Our own earlier write to her
 * comes back in a pull (its echo), though nothing changed on the platform: it must leave her
 * reduced, as `forget` left her. Only a platform user's change brings her back whole.
 */
afterEach(closePasses);

const PATIENT = {
  customerId: 'K-51',
  lastName: 'Quastenbrink',
  address: 'Lerchenweg 9',
  regionId: 'r-1',
  careGivers: [],
};
const VALUES = ['Quastenbrink', 'Lerchenweg', '0170 5550777'];

/** A patient a platform user made, pulled; our write to her done; its echo not yet pulled. */
async function written(pass: Pass): Promise<string> {
  const id = String((await pass.rig.platformRecord('patient', PATIENT))._id);
  await pass.pull('patient');
  pass.rig.simClock.advance(60_000);
  pass.queue('patient', { customerId: PATIENT.customerId, mobilePhone: '0170 5550777' });
  expect((await pass.run()).waiting).toBe(0);
  return id;
}

const bytesOf = (pass: Pass, id: string) =>
  JSON.stringify([
    getMirror(pass.rig.store, 'patient', id),
    pass.rig.store.db.prepare('SELECT json FROM ledger WHERE _id = ?').all(id),
  ]);

const handOvers = (pass: Pass, id: string) =>
  listStoredJobs(pass.rig.store, ['pending', 'running', 'done', 'dead'], -1, 'deliver.patient')
    .filter((job) => job.payload['id'] === id)
    .map((job) => job.payload['version']);

describe('forget, then the echo of our own earlier write', () => {
  it.each(['next', 'until-changed'] as const)(
    'leaves the patient reduced (loop suppression %s), hands the ERP nothing',
    async (loopSuppression) => {
      const pass = await startPass('B', loopSuppression);
      const id = await written(pass);
      // The first pull's hand-over is dead (the rig runs no ERP): forced, as forget says.
      const erased = erasePatient(
        pass.rig.store,
        { by: 'customerId', value: PATIENT.customerId },
        { force: true },
      );
      expect(erased.outcome).toBe('erased');
      const handed = handOvers(pass, id);

      // Every list brings the patient again: a reconciliation or the pulls covering our write.
      pass.rig.store.db.prepare("DELETE FROM checkpoints WHERE resource = 'patient'").run();
      await pass.pull('patient');
      await pass.pull('patient');

      expect(getMirror(pass.rig.store, 'patient', id)?.record).toHaveProperty('_reduced');
      expect(VALUES.filter((value) => bytesOf(pass, id).includes(value))).toEqual([]);
      expect(handOvers(pass, id)).toEqual(handed);
    },
  );

  it('a platform user’s change after forget brings the patient back whole, to the ERP too', async () => {
    const pass = await startPass('B');
    const id = await written(pass);
    erasePatient(pass.rig.store, { by: 'customerId', value: PATIENT.customerId }, { force: true });
    const handed = handOvers(pass, id);
    pass.rig.simClock.advance(60_000);
    await pass.rig.sim.control.patchRecord('patient', id, { address: 'Amselweg 3' });
    await pass.pull('patient');
    await pass.pull('patient');

    expect(getMirror(pass.rig.store, 'patient', id)?.record).toMatchObject({
      address: 'Amselweg 3',
      lastName: 'Quastenbrink',
    });
    expect(handOvers(pass, id).length).toBe(handed.length + 1);
  });
});
