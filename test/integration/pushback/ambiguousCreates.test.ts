import { afterEach, describe, expect, it } from 'vitest';
import { claimJobs, deadLettersOf, getStoredJob, reviveJob } from '../../../src/store/index.js';
import {
  closePasses,
  deadCode,
  once,
  startPass,
  type Pass,
} from '../../support/pushback/passRig.js';
import { erpOrderMessage } from '../../support/pushback/erpOrderMessage.js';

/**
 * #23.3: a POST whose answer is lost after the platform made the record must not make a second
 * one. The simulator's `truncate` fault answers the processed request with half its body and
 * cuts the connection: the record is made, the answer lost, as a proxy's time-out or a dropped
 * line would leave it. `reset` cuts the connection before the request is processed.
 */
const MAY_EXIST = 'may already exist on the platform — check, then `queue retry` or `queue drop`';

afterEach(closePasses);

async function patientOf(pass: Pass): Promise<string> {
  const record = { customerId: 'K-50', lastName: 'Muster', regionId: 'r-1' };
  return String((await pass.rig.platformRecord('patient', record, true))._id);
}

/** The info line that reports job `jobId` done. */
const doneLine = (pass: Pass, jobId: number) =>
  pass.logs.find((l) => l.jobId === jobId && l.level === 'info' && l.msg.startsWith('pushed '));

const note = { noteText: 'Lieferung an Nachbarn', patientCustomerId: 'K-50', status: 1 };

describe('a create whose answer is lost after the platform made the record', () => {
  it.each([
    ['A', 'next'],
    ['B', 'next'],
    ['C', 'next'],
    ['B', 'until-changed'],
  ] as const)(
    'patientNote (%s, loop suppression %s): dead at once, CREATE_OUTCOME_UNKNOWN, one note on the platform',
    async (variant, loopSuppression) => {
      const pass = await startPass(variant, loopSuppression);
      const patientId = await patientOf(pass);
      await once(pass, 'POST', '/patientNote', { truncate: true });
      const id = pass.queue('patientNote', note);

      expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
      expect(getStoredJob(pass.rig.store, id)?.state).toBe('dead');
      expect(deadCode(pass, id)).toBe('CREATE_OUTCOME_UNKNOWN');
      const [letter] = deadLettersOf(pass.rig.store, id);
      expect(letter?.reason).toContain(MAY_EXIST);
      expect(letter?.reason).toContain('no whole answer came');
      // A later pass leaves the dead job alone: nothing is posted again.
      expect(await pass.run()).toEqual({ ran: 0, waiting: 0 });
      expect(await pass.rig.requests('POST', '/patientNote')).toHaveLength(1);
      const notes = pass.onPlatform('patientNote').filter((n) => n.patientId === patientId);
      expect(notes.map((n) => n.noteText)).toEqual([note.noteText]);
    },
  );

  // A 5xx other than 503 may come after the work was done; a 2xx whose body cannot be read did.
  it.each([
    ['HTTP 500', { errorStatus: 500 }, 'the platform answered HTTP 500'],
    ['an unreadable 201', { malformed: true }, 'the platform answered HTTP 201 with a body'],
  ] as const)(
    'patientNote answered %s: dead at once, CREATE_OUTCOME_UNKNOWN',
    async (_, fault, why) => {
      const pass = await startPass('B');
      await patientOf(pass);
      await once(pass, 'POST', '/patientNote', fault);
      const id = pass.queue('patientNote', note);

      expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
      expect(deadCode(pass, id)).toBe('CREATE_OUTCOME_UNKNOWN');
      expect(deadLettersOf(pass.rig.store, id)[0]?.reason).toContain(why);
      expect(await pass.rig.requests('POST', '/patientNote')).toHaveLength(1);
    },
  );

  it.each(['A', 'B'] as const)(
    'integratedCare (%s): the retry finds the one it made and PATCHes it; one care arrangement',
    async (variant) => {
      const pass = await startPass(variant);
      const patientId = await patientOf(pass);
      await once(pass, 'POST', '/integratedCare', { truncate: true });
      const care = { patientCustomerId: 'K-50', therapyId: 3, isInitialCare: true };
      const id = pass.queue('integratedCare', care);

      expect(await pass.run()).toEqual({ ran: 1, waiting: 1 });
      expect(getStoredJob(pass.rig.store, id)).toMatchObject({ state: 'pending', attempts: 1 });
      const [made] = pass.onPlatform('integratedCare').filter((c) => c.patientId === patientId);
      expect(made).toBeDefined();

      expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
      expect(getStoredJob(pass.rig.store, id)?.state).toBe('done');
      expect(await pass.rig.requests('POST', '/integratedCare')).toHaveLength(1);
      expect((await pass.rig.requests('PATCH', '/integratedCare/')).map((r) => r.path)).toEqual([
        `/integratedCare/${String(made?._id)}`,
      ]);
      const cares = pass.onPlatform('integratedCare').filter((c) => c.patientId === patientId);
      expect(cares).toHaveLength(1);
      expect(pass.rig.mirrored('integratedCare').map((c) => c._id)).toEqual([made?._id]);
      expect(doneLine(pass, id)).toMatchObject({
        msg: `pushed integratedCare ${String(getStoredJob(pass.rig.store, id)?.entityKey)} back to the platform: platform answered 200 (the record was there already: updated, not created)`,
        sent: true,
        answerStatus: 200,
        existing: true,
      });
    },
  );

  it('integratedCare: a POST the platform never processed is made on the retry, once', async () => {
    const pass = await startPass('B');
    const patientId = await patientOf(pass);
    await once(pass, 'POST', '/integratedCare', { errorStatus: 503 });
    const id = pass.queue('integratedCare', { patientId, therapyId: 3, isInitialCare: true });

    expect(await pass.run()).toEqual({ ran: 1, waiting: 1 });
    expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
    expect(getStoredJob(pass.rig.store, id)?.state).toBe('done');
    expect((await pass.rig.requests('POST', '/integratedCare')).map((r) => r.status)).toEqual([
      503, 201,
    ]);
    expect(doneLine(pass, id)?.msg).toMatch(/ back to the platform: platform answered 201$/);
    expect(doneLine(pass, id)).not.toHaveProperty('existing');
    expect(pass.onPlatform('integratedCare').filter((c) => c.patientId === patientId)).toHaveLength(
      1,
    );
  });

  // The creates the contract offers no lookup for, in a variant that has each.
  it.each([
    [
      'C',
      'device',
      '/device',
      { serialNumber: 'SN-1', description: 'Pumpe', patientCustomerId: 'K-50' },
    ],
    [
      'B',
      'attachment',
      '/attachment',
      {
        data: 'eA==',
        filename: 'rezept.pdf',
        mime: 'application/pdf',
        metadata: { type: 1 },
        patientCustomerId: 'K-50',
      },
    ],
    ['B', 'productGroup', '/productGroup', { name: 'OWG', type: 0 }],
    ['A', 'contractArticleGroup', '/contractArticleGroup', { name: 'Vertrag 1' }],
    ['A', 'insuranceContract', '/insuranceContract', { name: 'Vertrag 1' }],
  ] as const)(
    '%s %s: dead at once with CREATE_OUTCOME_UNKNOWN, one record on the platform',
    async (variant, kind, path, payload) => {
      const pass = await startPass(variant);
      await patientOf(pass);
      const before = pass.onPlatform(kind).length;
      await once(pass, 'POST', path, { truncate: true });
      const id = pass.queue(kind, { ...payload });

      expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
      expect(getStoredJob(pass.rig.store, id)?.state).toBe('dead');
      expect(deadCode(pass, id)).toBe('CREATE_OUTCOME_UNKNOWN');
      expect(deadLettersOf(pass.rig.store, id)[0]?.reason).toContain(MAY_EXIST);
      expect(pass.onPlatform(kind).length - before).toBe(1);
    },
  );
});

/**
 * The creates whose record carries a key the platform keeps unique (spec document 1: customerId
 * per tenant, customerNumber; the ERP order's salesId): the retry looks the key up, or the
 * platform refuses the second create, and the job updates the one record.
 */
describe('a create with a natural key whose answer is lost', () => {
  const erpOrder = erpOrderMessage('S-77', 'K-50');
  const article = {
    customerNumber: 'ART-77',
    name: 'Verband',
    packagingUnits: [{ quantity: 10, unit: 'Stk', pcn: '0815' }],
  };
  // The ERP order's create is a write by its salesId: the read right after finds it at once.
  it.each([
    ['A', 'patient', 'customerId', { customerId: 'K-77', lastName: 'Neu', regionId: 'r-1' }, 2],
    ['B', 'patient', 'customerId', { customerId: 'K-77', lastName: 'Neu', regionId: 'r-1' }, 2],
    ['B', 'article', 'customerNumber', article, 2],
    ['C', 'article', 'customerNumber', article, 2],
    ['B', 'erpOrder', 'salesId', erpOrder, 1],
  ] as const)(
    '%s %s: tried again, one record with its %s on the platform',
    async (variant, kind, key, payload, passes) => {
      const pass = await startPass(variant);
      await patientOf(pass);
      await once(pass, 'POST', `/${kind}`, { truncate: true });
      const id = pass.queue(kind, { ...payload });

      for (let left = passes - 1; left >= 0; left -= 1) {
        expect(await pass.run()).toEqual({ ran: 1, waiting: left > 0 ? 1 : 0 });
      }
      expect(getStoredJob(pass.rig.store, id)?.state).toBe('done');
      const value = String(payload[key as keyof typeof payload]);
      expect(pass.rig.sim.state.store.findBy('demo', kind, key, value)).toHaveLength(1);
    },
  );
});

describe('a create the platform surely did not process', () => {
  it.each([400, 403, 422])(
    'patientNote refused with %i: dead as any refusal, not CREATE_OUTCOME_UNKNOWN',
    async (status) => {
      const pass = await startPass('B');
      const patientId = await patientOf(pass);
      await once(pass, 'POST', '/patientNote', { errorStatus: status });
      const id = pass.queue('patientNote', note);

      expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
      expect(getStoredJob(pass.rig.store, id)?.state).toBe('dead');
      expect(deadCode(pass, id)).not.toBe('CREATE_OUTCOME_UNKNOWN');
      const [letter] = deadLettersOf(pass.rig.store, id);
      expect(letter?.httpStatus).toBe(status);
      expect(letter?.reason).not.toContain(MAY_EXIST);
      expect(pass.onPlatform('patientNote').filter((n) => n.patientId === patientId)).toEqual([]);
    },
  );

  it('patientNote answered 503 (not taken on): tried again and made once', async () => {
    const pass = await startPass('B');
    const patientId = await patientOf(pass);
    await once(pass, 'POST', '/patientNote', { errorStatus: 503 });
    const id = pass.queue('patientNote', note);

    expect(await pass.run()).toEqual({ ran: 1, waiting: 1 });
    expect(getStoredJob(pass.rig.store, id)).toMatchObject({ state: 'pending', lastStatus: 503 });
    expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
    expect(getStoredJob(pass.rig.store, id)?.state).toBe('done');
    const notes = pass.onPlatform('patientNote').filter((n) => n.patientId === patientId);
    expect(notes).toHaveLength(1);
  });

  it('patientNote cut before it was processed: dead for a person to check; `queue retry` makes it once', async () => {
    const pass = await startPass('B');
    const patientId = await patientOf(pass);
    await once(pass, 'POST', '/patientNote', { reset: true });
    const id = pass.queue('patientNote', note);

    // From our side a cut before and a cut after processing look the same: no whole answer.
    expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
    expect(deadCode(pass, id)).toBe('CREATE_OUTCOME_UNKNOWN');
    expect(pass.onPlatform('patientNote').filter((n) => n.patientId === patientId)).toEqual([]);

    // The person looked, found no note, and retried: it is posted again, not refused again.
    expect(reviveJob(pass.rig.store, id)).toBe(true);
    expect(await pass.run()).toEqual({ ran: 1, waiting: 0 });
    expect(getStoredJob(pass.rig.store, id)?.state).toBe('done');
    const notes = pass.onPlatform('patientNote').filter((n) => n.patientId === patientId);
    expect(notes).toHaveLength(1);
  });

  it('a create its process stopped in the middle of: a note is not posted blindly again, a care arrangement is looked for', async () => {
    const pass = await startPass('B');
    const patientId = await patientOf(pass);
    const noteJob = pass.queue('patientNote', note);
    const care = { patientCustomerId: 'K-50', therapyId: 3, isInitialCare: true };
    const careJob = pass.queue('integratedCare', care);
    // Both were running when the process was killed; the care arrangement's POST had gone out.
    const lease = new Date(pass.rig.context.clock.now().getTime() + 60_000).toISOString();
    claimJobs(pass.rig.store, [noteJob, careJob], lease, undefined);
    const made = await pass.rig.sim.control.createRecord('integratedCare', {
      patientId,
      therapyId: 3,
      isInitialCare: true,
    });
    expect(pass.worker.recover()).toEqual([noteJob, careJob]);

    expect(await pass.run()).toEqual({ ran: 2, waiting: 0 });
    expect(deadCode(pass, noteJob)).toBe('CREATE_OUTCOME_UNKNOWN');
    expect(deadLettersOf(pass.rig.store, noteJob)[0]?.reason).toContain('the process stopped');
    expect(await pass.rig.requests('POST', '/patientNote')).toHaveLength(0);
    expect(getStoredJob(pass.rig.store, careJob)?.state).toBe('done');
    expect(await pass.rig.requests('POST', '/integratedCare')).toHaveLength(0);
    expect((await pass.rig.requests('PATCH', '/integratedCare/')).map((r) => r.path)).toEqual([
      `/integratedCare/${String(made._id)}`,
    ]);
  });
});
