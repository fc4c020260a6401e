import { describe, expect, it } from 'vitest';
import { claimJob, countJobs, listStoredJobs } from '../../../src/store/index.js';
import { useAppCycle, type AppCycle } from '../../support/appCycle.js';
import { eventually } from '../../support/eventually.js';
import { answeringUntil, api } from '../../support/simulator.js';

const RESOURCES = ['patient', 'article', 'integratedCare', 'singleOrder'] as const;

/**
 * A first pass that hands the orders over while every acknowledgement fails: one of them waits,
 * with the one file of its order.
 */
async function anAcknowledgementWaits(cycle: AppCycle) {
  const { sim, rig, app } = cycle;
  await sim.control.setFault({ method: 'PATCH', errorStatus: 503 });
  await cycle.pass(RESOURCES);
  await sim.control.clearFaults();
  const [job] = listStoredJobs(app.store, ['pending'], 1, 'ack.singleOrder');
  if (job === undefined) throw new Error('no acknowledgement waits');
  const id = String(job.payload['id']);
  const files = () => rig.outboxFiles('singleOrder').filter((name) => name.startsWith(id));
  const filesBefore = files();
  expect(filesBefore).toHaveLength(1);
  /** The order's files and the platform's acknowledgements of it: one each. */
  const handedOnceAcknowledgedOnce = async () => {
    expect(files()).toEqual(filesBefore);
    const acknowledgements = (await sim.control.requests()).filter(
      (r) => r.method === 'PATCH' && r.path === `/singleOrder/${id}` && r.status === 200,
    );
    expect(acknowledgements).toHaveLength(1);
  };
  return { job, id, handedOnceAcknowledgedOnce };
}

/**
 * A daemon killed after the platform applied an acknowledgement, before the daemon kept its
 * answer (the kill loop's case): the job is left running. The next start puts it back as
 * interrupted, and its first pull may list the order's new version before the job runs again and
 * reads the order back: that version is our own write, no news to the ERP.
 */
describe('an acknowledgement interrupted after the platform applied it', () => {
  const cycle = useAppCycle({ variant: 'B' });

  it('hands the ERP no second file of the order, and the platform gets one acknowledgement', async () => {
    const { sim, rig, app } = cycle();
    const { job, id, handedOnceAcknowledgedOnce } = await anAcknowledgementWaits(cycle());

    // The killed life: it claimed the job and the platform applied its PATCH; nothing more.
    expect(claimJob(app.store, job.id, rig.clock.now().toISOString())).toBeDefined();
    const patched = await api(sim, 'PATCH', `/singleOrder/${id}`, { body: { status: 1 } });
    expect(patched.status).toBe(200);

    // The next life: the job is put back, then the pull comes before it runs.
    const next = await cycle().restart();
    expect(next.worker.recover()).toEqual([job.id]);
    cycle().simClock.advance(60_000);
    rig.clock.advance(60_000);
    const pulled = await next.runner.runAll(['singleOrder']);
    expect(pulled.every((pull) => pull.ok)).toBe(true);
    expect(pulled.some((pull) => pull.fresh > 0)).toBe(true);
    expect(countJobs(next.store, 'pending', 'deliver.')).toBe(0);

    await next.worker.runUntilEmpty();
    await handedOnceAcknowledgedOnce();
  });
});

/**
 * The same version without a crash: the platform applied an acknowledgement and its answer is
 * still on its way (here its body, held on the simulator's clock) when a pull lists the order.
 */
describe('an acknowledgement whose answer is still coming when a pull lists the order', () => {
  const cycle = useAppCycle({ variant: 'B' });

  it('hands the ERP no second file of the order, and the platform gets one acknowledgement', async () => {
    const { sim, rig, app, simClock } = cycle();
    const { id, handedOnceAcknowledgedOnce } = await anAcknowledgementWaits(cycle());
    simClock.advance(60_000);
    rig.clock.advance(60_000);

    // The PATCH applies at once; its answer's body waits on the simulator's clock.
    await sim.control.setFault({ method: 'PATCH', path: `/singleOrder/${id}`, slowBodyMs: 1_000 });
    const acknowledging = app.worker.runUntilEmpty();
    await eventually('the answer held', () => simClock.sleeping() > 0 || undefined);
    const pulled = await app.runner.runAll(['singleOrder']);
    expect(pulled.every((pull) => pull.ok)).toBe(true);
    expect(pulled.some((pull) => pull.fresh > 0)).toBe(true);
    await answeringUntil(sim, 1_000, acknowledging);

    await app.worker.runUntilEmpty();
    await handedOnceAcknowledgedOnce();
  });
});
