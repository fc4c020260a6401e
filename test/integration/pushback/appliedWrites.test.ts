import { afterEach, describe, expect, it } from 'vitest';
import { ORDER_STATUS } from '../../../src/contract/index.js';
import { claimJobs, getMirror, getStoredJob } from '../../../src/store/index.js';
import { FakeClock } from '../../support/fakeClock.js';
import { closePasses, once, startPass, type Pass } from '../../support/pushback/passRig.js';

/**
 * #23.2: a PATCH or PUT whose answer is lost after the platform applied it. The retry reads the
 * record first (its single read; for orders their status lists, which show our own changes),
 * takes a version that already carries our change as the write's answer, and sends nothing; the
 * pull then knows that version as our own and hands the ERP nothing of it. The simulator's
 * `resetAfterProcessing` applies the request and cuts the connection before any answer; `reset`
 * cuts it before the request is processed.
 */
afterEach(closePasses);

const SUPPRESSIONS = ['next', 'until-changed'] as const;

interface Pulled {
  id: string;
  /** The versions of it the first pull handed the ERP: the platform user's. */
  handed: unknown[];
}

/**
 * A record a platform user made, pulled by the real puller (so the ERP has it), then a minute on
 * the platform's clock: our write's version gets a stamp of its own.
 */
async function pulled(
  pass: Pass,
  resource: 'patient' | 'singleOrder',
  record: Record<string, unknown>,
): Promise<Pulled> {
  const id = String((await pass.rig.platformRecord(resource, record))._id);
  await pass.pull(resource);
  const handed = pass.handedOver(resource, id);
  expect(handed).toHaveLength(1);
  pass.rig.simClock.advance(60_000);
  return { id, handed };
}

// With its care givers, as the platform stores every patient a write touched (it adds `[]`).
const pulledPatient = (pass: Pass) =>
  pulled(pass, 'patient', {
    customerId: 'K-50',
    lastName: 'Muster',
    regionId: 'r-1',
    careGivers: [],
  });
const pulledOrder = (pass: Pass) => pulled(pass, 'singleOrder', { status: 0 });

/**
 * The record as the daemon's mirror holds it. (The worker runs no ERP: the first pull's hand-over
 * goes dead on the first pass, which the tests do not count.)
 */
const mirrored = (pass: Pass, resource: string, id: string) =>
  getMirror(pass.rig.store, resource, id)?.record;

/** The info line that reports job `jobId` done (acknowledged, or pushed back). */
const doneLine = (pass: Pass, jobId: number) =>
  pass.logs.find(
    (l) => l.jobId === jobId && l.level === 'info' && /^(acknowledged|pushed) /.test(l.msg),
  );

/** Two pulls: under `next` the first leaves our change out, the second brings it back. */
async function pullTwice(pass: Pass, resource: 'patient' | 'singleOrder'): Promise<void> {
  await pass.pull(resource);
  await pass.pull(resource);
}

const change = { customerId: 'K-50', mobilePhone: '0170 5550123' };

/**
 * The write's answer lost after the platform applied it, and the read right after it failing
 * (both tries of the rig's reads): the outcome stays unknown and the job is left to its retry.
 */
async function loseAnswerAndRead(pass: Pass, method: string, path: string, readPath: string) {
  await once(pass, method, path, { resetAfterProcessing: true });
  await pass.rig.sim.control.setFault({
    method: 'GET',
    path: readPath,
    times: 2,
    errorStatus: 500,
  });
}

/**
 * A minute on both clocks (the skew stays as it was): past the wait a failed list imposes on
 * its next request (#24.4), which the failed read right after the write started.
 */
function aMinuteLater(pass: Pass): void {
  pass.rig.simClock.advance(60_000);
  const local = pass.rig.context.clock;
  if (local instanceof FakeClock) local.advance(60_000);
}

describe('a write whose answer is lost after the platform applied it', () => {
  it.each(SUPPRESSIONS)(
    'patient PATCH (B, loop suppression %s): not sent again; the pull hands the ERP nothing of it',
    async (loopSuppression) => {
      const pass = await startPass('B', loopSuppression);
      const { id, handed } = await pulledPatient(pass);
      await loseAnswerAndRead(pass, 'PATCH', '/patient/', '/patient/');
      const job = pass.queue('patient', change);

      expect((await pass.run()).waiting).toBe(1);
      // Said, not swallowed; at debug, as the read's HTTP 500 is a platform outage's kind: one
      // state, whose warning the daemon's outage log gives once (issue 37), not one per job.
      expect(
        pass.logs.find((l) => l.jobId === job && /read after it failed too/.test(String(l.msg))),
      ).toMatchObject({ level: 'debug', resource: 'patient', id });
      expect((await pass.rig.stored('patient', id)).mobilePhone).toBe(change.mobilePhone);
      expect((await pass.run()).waiting).toBe(0);
      expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
      expect((await pass.rig.requests('PATCH', '/patient/')).map((r) => r.status)).toEqual([0]);

      await pullTwice(pass, 'patient');
      expect(pass.handedOver('patient', id)).toEqual(handed);
      expect(mirrored(pass, 'patient', id)?.mobilePhone).toBe(change.mobilePhone);
    },
  );

  it('patient PUT (A): the read right after the lost answer finds the change; one PUT, done at once', async () => {
    const pass = await startPass('A');
    const { id, handed } = await pulledPatient(pass);
    await once(pass, 'PUT', '/patient/', { resetAfterProcessing: true });
    const job = pass.queue('patient', change);

    expect((await pass.run()).waiting).toBe(0);
    expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
    expect(await pass.rig.requests('PUT', `/patient/${id}`)).toHaveLength(1);
    await pullTwice(pass, 'patient');
    expect(pass.handedOver('patient', id)).toEqual(handed);
  });

  it.each(SUPPRESSIONS)(
    'order status PATCH (B, loop suppression %s): not sent again; the pull hands the ERP nothing of it',
    async (loopSuppression) => {
      const pass = await startPass('B', loopSuppression);
      const { id, handed } = await pulledOrder(pass);
      await loseAnswerAndRead(pass, 'PATCH', '/singleOrder/', '/singleOrder');
      const job = pass.queue('orderStatus', { id, salesId: 'S-1', status: ORDER_STATUS.Processed });

      expect((await pass.run()).waiting).toBe(1);
      aMinuteLater(pass);
      expect(await pass.rig.stored('singleOrder', id)).toMatchObject({ salesId: 'S-1' });
      expect((await pass.run()).waiting).toBe(0);
      expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
      expect((await pass.rig.requests('PATCH', '/singleOrder/')).map((r) => r.status)).toEqual([0]);

      await pullTwice(pass, 'singleOrder');
      expect(pass.handedOver('singleOrder', id)).toEqual(handed);
      expect(mirrored(pass, 'singleOrder', id)).toMatchObject({
        salesId: 'S-1',
        status: ORDER_STATUS.Processed,
      });
    },
  );

  it('order status PATCH (B): a pull before the retry lists the version our lost write made; not handed to the ERP', async () => {
    const pass = await startPass('B');
    const { id, handed } = await pulledOrder(pass);
    await loseAnswerAndRead(pass, 'PATCH', '/singleOrder/', '/singleOrder');
    const job = pass.queue('orderStatus', { id, salesId: 'S-1', status: ORDER_STATUS.Processed });
    expect((await pass.run()).waiting).toBe(1);
    aMinuteLater(pass);

    // Orders are never left out of our lists: this pull sees our change before the retry.
    await pullTwice(pass, 'singleOrder');
    expect(mirrored(pass, 'singleOrder', id)).toMatchObject({ salesId: 'S-1' });
    expect(pass.handedOver('singleOrder', id)).toEqual(handed);

    expect((await pass.run()).waiting).toBe(0);
    expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
    expect(await pass.rig.requests('PATCH', '/singleOrder/')).toHaveLength(1);
    expect(pass.handedOver('singleOrder', id)).toEqual(handed);
  });

  it('acknowledgement (B): a Transmitted the platform took is not sent again, nor handed back', async () => {
    const pass = await startPass('B');
    const { id, handed } = await pulledOrder(pass);
    const version = String(handed[0]);
    await loseAnswerAndRead(pass, 'PATCH', '/singleOrder/', '/singleOrder');
    const job = pass.queue('ack.singleOrder', { resource: 'singleOrder', id, version });

    expect((await pass.run()).waiting).toBe(1);
    aMinuteLater(pass);
    expect((await pass.run()).waiting).toBe(0);
    expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
    expect(await pass.rig.requests('PATCH', '/singleOrder/')).toHaveLength(1);
    expect(doneLine(pass, job)).toMatchObject({
      msg: `acknowledged singleOrder ${id} on the platform: already on the platform, nothing sent`,
      sent: false,
      notSent: 'already on the platform',
    });
    await pullTwice(pass, 'singleOrder');
    expect(pass.handedOver('singleOrder', id)).toEqual(handed);
  });
});

describe('a write whose answer is lost, read right after', () => {
  it.each(SUPPRESSIONS)(
    'order status PATCH (B, loop suppression %s): the status lists show the change; done at once, nothing handed back',
    async (loopSuppression) => {
      const pass = await startPass('B', loopSuppression);
      const { id, handed } = await pulledOrder(pass);
      await once(pass, 'PATCH', '/singleOrder/', { resetAfterProcessing: true });
      const job = pass.queue('orderStatus', { id, salesId: 'S-1', status: ORDER_STATUS.Processed });

      expect((await pass.run()).waiting).toBe(0);
      expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
      expect(await pass.rig.requests('PATCH', '/singleOrder/')).toHaveLength(1);
      expect(doneLine(pass, job)).toMatchObject({ sent: true, answerLost: true });
      expect(doneLine(pass, job)?.msg).toMatch(
        /back to the platform \(status 3, salesId S-1\): its answer was lost, but a read shows the change applied$/,
      );
      expect(mirrored(pass, 'singleOrder', id)).toMatchObject({ salesId: 'S-1' });
      await pullTwice(pass, 'singleOrder');
      expect(pass.handedOver('singleOrder', id)).toEqual(handed);
    },
  );

  it('article PUT (B): the record keeps the unit it dropped, archived; still our change, sent once', async () => {
    const pass = await startPass('B');
    const units = [
      { quantity: 10, unit: 'Stk' },
      { quantity: 50, unit: 'Stk' },
    ];
    const made = { customerNumber: 'ART-9', name: 'Vlies', packagingUnits: units };
    const id = String((await pass.rig.platformRecord('article', made))._id);
    await pass.pull('article');
    const handed = pass.handedOver('article', id);
    pass.rig.simClock.advance(60_000);
    await once(pass, 'PUT', '/article/', { resetAfterProcessing: true });
    const job = pass.queue('article', { ...made, packagingUnits: [units[0]], listPrice: '9.90' });

    expect((await pass.run()).waiting).toBe(0);
    expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
    expect(await pass.rig.requests('PUT', '/article/')).toHaveLength(1);
    const stored = await pass.rig.stored('article', id);
    expect(stored.packagingUnits).toHaveLength(2);
    await pass.pull('article');
    await pass.pull('article');
    expect(pass.handedOver('article', id)).toEqual(handed);
  });
});

describe('a PUT whose answer and the read after it are lost', () => {
  it('article (B): the pull before the retry lists the version it made, without what it dropped; not handed to the ERP', async () => {
    const pass = await startPass('B');
    const made = {
      customerNumber: 'ART-9',
      name: 'Vlies',
      description: 'steril',
      packagingUnits: [{ quantity: 10, unit: 'Stk' }],
    };
    const id = String((await pass.rig.platformRecord('article', made))._id);
    await pass.pull('article');
    const handed = pass.handedOver('article', id);
    pass.rig.simClock.advance(60_000);
    await loseAnswerAndRead(pass, 'PUT', '/article/', '/article/');
    // The ERP sends no description: the PUT drops it.
    const sent = { customerNumber: 'ART-9', name: 'Vlies', packagingUnits: made.packagingUnits };
    const job = pass.queue('article', { ...sent, listPrice: '9.90' });
    expect((await pass.run()).waiting).toBe(1);
    expect((await pass.rig.stored('article', id)).description).toBeUndefined();

    await pass.pull('article');
    await pass.pull('article');
    expect(pass.handedOver('article', id)).toEqual(handed);
    expect((await pass.run()).waiting).toBe(0);
    expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
    expect(await pass.rig.requests('PUT', '/article/')).toHaveLength(1);
  });
});

describe('a write its process stopped in the middle of', () => {
  it('patient PATCH (B): the restart finds the change applied; not sent again, not handed back', async () => {
    const pass = await startPass('B');
    const { id, handed } = await pulledPatient(pass);
    const job = pass.queue('patient', change);
    // Running when the process was killed, its PATCH had gone out (with our key) and applied.
    const lease = new Date(pass.rig.context.clock.now().getTime() + 60_000).toISOString();
    claimJobs(pass.rig.store, [job], lease, undefined);
    await pass.rig.context.client.updatePatient(id, { mobilePhone: change.mobilePhone });
    expect(pass.worker.recover()).toEqual([job]);

    expect((await pass.run()).waiting).toBe(0);
    expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
    expect(await pass.rig.requests('PATCH', '/patient/')).toHaveLength(1);
    await pullTwice(pass, 'patient');
    expect(pass.handedOver('patient', id)).toEqual(handed);
  });
});

describe('a write cut off before the platform processed it', () => {
  it.each(SUPPRESSIONS)(
    'patient PATCH (B, loop suppression %s): read, found without the change, sent again once',
    async (loopSuppression) => {
      const pass = await startPass('B', loopSuppression);
      const { id, handed } = await pulledPatient(pass);
      await once(pass, 'PATCH', '/patient/', { reset: true });
      const job = pass.queue('patient', change);

      expect((await pass.run()).waiting).toBe(1);
      expect((await pass.rig.stored('patient', id)).mobilePhone).toBeUndefined();
      expect((await pass.run()).waiting).toBe(0);
      expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
      // The retry looked before it wrote (whether an earlier try made the patient, whether it
      // carries the change), and wrote because the change was not there.
      expect((await pass.rig.requests('GET', `/patient/${id}`)).length).toBeGreaterThan(0);
      expect((await pass.rig.requests('PATCH', '/patient/')).map((r) => r.status)).toEqual([
        0, 200,
      ]);
      expect((await pass.rig.stored('patient', id)).mobilePhone).toBe(change.mobilePhone);
      await pullTwice(pass, 'patient');
      expect(pass.handedOver('patient', id)).toEqual(handed);
    },
  );

  it('order status PATCH (B): the status lists show the order unchanged; sent again once', async () => {
    const pass = await startPass('B');
    const { id, handed } = await pulledOrder(pass);
    await once(pass, 'PATCH', '/singleOrder/', { reset: true });
    const lists = async () => (await pass.rig.requests('GET', '/singleOrder')).length;
    const pulls = await lists();
    const job = pass.queue('orderStatus', { id, salesId: 'S-1', status: ORDER_STATUS.Processed });

    expect((await pass.run()).waiting).toBe(1);
    expect((await pass.run()).waiting).toBe(0);
    expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
    // The retry read the status lists before it wrote.
    expect(await lists()).toBeGreaterThan(pulls);
    expect((await pass.rig.requests('PATCH', '/singleOrder/')).map((r) => r.status)).toEqual([
      0, 200,
    ]);
    await pullTwice(pass, 'singleOrder');
    expect(pass.handedOver('singleOrder', id)).toEqual(handed);
  });
});

describe('a create whose answer is lost, then changed by a platform user', () => {
  it.each(SUPPRESSIONS)(
    'patient (B, loop suppression %s): the retry finds it by customerId and leaves the change alone',
    async (loopSuppression) => {
      const pass = await startPass('B', loopSuppression);
      await once(pass, 'POST', '/patient', { resetAfterProcessing: true });
      const payload = { customerId: 'K-88', lastName: 'Neu', phone: '0221 1', careGivers: [] };
      const job = pass.queue('patient', payload);
      expect((await pass.run()).waiting).toBe(1);

      const [made] = pass.onPlatform('patient').filter((p) => p.customerId === 'K-88');
      const id = String(made?._id);
      // A minute later on both sides (the skew stays as it was).
      pass.rig.simClock.advance(60_000);
      const local = pass.rig.context.clock;
      if (local instanceof FakeClock) local.advance(60_000);
      await pass.rig.sim.control.patchRecord('patient', id, { phone: '0221 2' });

      expect((await pass.run()).waiting).toBe(0);
      expect(getStoredJob(pass.rig.store, job)?.state).toBe('done');
      expect(await pass.rig.requests('PATCH', '/patient/')).toHaveLength(0);
      expect(await pass.rig.requests('PUT', '/patient/')).toHaveLength(0);
      expect(await pass.rig.stored('patient', id)).toMatchObject({ phone: '0221 2' });
      await pullTwice(pass, 'patient');
      expect(getMirror(pass.rig.store, 'patient', id)?.record).toMatchObject({ phone: '0221 2' });
      expect(pass.handedOver('patient', id)).toHaveLength(1);
    },
  );
});

describe("a platform user's edit after our write's answer was lost", () => {
  it('order (B): an acknowledgement cut after processing, then a user adds a field: the pull hands the user version to the ERP', async () => {
    const pass = await startPass('B');
    const { id, handed } = await pulledOrder(pass);
    await loseAnswerAndRead(pass, 'PATCH', '/singleOrder/', '/singleOrder');
    pass.queue('ack.singleOrder', { resource: 'singleOrder', id, version: String(handed[0]) });
    expect((await pass.run()).waiting).toBe(1);
    aMinuteLater(pass);

    // The user's field is one the order did not have: the record we knew cannot name it.
    pass.rig.simClock.advance(60_000);
    const edited = await pass.rig.sim.control.patchRecord('singleOrder', id, {
      deliveryInformation: 'Hintereingang',
    });
    await pass.pull('singleOrder');
    expect(pass.handedOver('singleOrder', id)).toEqual([...handed, edited.timestamp]);
  });
});

describe('the answer to a write of ours listed back after a later write of ours failed', () => {
  it('order (B): the acknowledgement went through, the status PATCH after it answered 500; the pull hands the ERP nothing of ours', async () => {
    const pass = await startPass('B');
    const { id, handed } = await pulledOrder(pass);
    pass.queue('ack.singleOrder', { resource: 'singleOrder', id, version: String(handed[0]) });
    expect((await pass.run()).waiting).toBe(0);

    // The status change's outcome is unknown (a 500 may come after the work was done): the
    // daemon notes it as tried, which replaces the acknowledgement's fingerprint.
    await once(pass, 'PATCH', '/singleOrder/', { errorStatus: 500 });
    pass.queue('orderStatus', { id, salesId: 'S-1', status: ORDER_STATUS.Processed });
    expect((await pass.run()).waiting).toBe(1);

    await pass.pull('singleOrder');
    expect(pass.handedOver('singleOrder', id)).toEqual(handed);
  });
});
