import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import type { ResourceName } from '../../../src/contract/index.js';
import { createLogger } from '../../../src/log/index.js';
import { countJobs } from '../../../src/store/index.js';
import { WAVE_WAIT_MS } from '../../../src/pull/waveWait.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { eventually } from '../../support/eventually.js';
import { answeringUntil, startTestSimulator, type TestSimulator } from '../../support/simulator.js';

type Line = Record<string, unknown>;

const START = '2026-03-01T08:00:00.000Z';

let sim: TestSimulator;
let rig: AppRig;
let app: App;
let lines: Line[];

beforeEach(async () => {
  sim = await startTestSimulator({ variant: 'B', seed: 2 });
  rig = appRig(sim.url, 'B', START);
  lines = [];
  app = await rig.open(
    createLogger({
      level: 'info',
      destination: { write: (line: string) => void lines.push(JSON.parse(line) as Line) },
    }),
  );
});
afterEach(async () => {
  await app.close();
  await sim.close();
  rig.cleanup();
});

/** The resources whose pulls finished, in the order they did. */
const finished = () =>
  lines.filter((line) => line['msg'] === 'pull finished').map((line) => String(line['resource']));
const troubles = () =>
  lines.filter((line) => ['warn', 'error', 'fatal'].includes(String(line['level'])));
const lastAt = (order: string[], names: readonly string[]) =>
  Math.max(...names.map((name) => order.lastIndexOf(name)));
const firstAt = (order: string[], names: readonly string[]) =>
  Math.min(...names.map((name) => order.indexOf(name)).filter((at) => at >= 0));

describe("the daemon's first pass", () => {
  it('pulls what orders refer to first, keeps their schedules back until it reaches them, and leaves no order waiting', async () => {
    const pass = app.runner.firstPass(() => false);
    // The orders' schedule comes while the pass is still at the patients.
    expect(await app.runner.runResource('singleOrder')).toBeUndefined();
    expect(await app.runner.reconcile(7)).toEqual([]);
    const pulled = (await pass).map((summary) => summary.resource);
    expect(pulled).toEqual(expect.arrayContaining(['integratedCare', 'singleOrder']));
    // In the order they finished: single orders after every care arrangement.
    expect(lastAt(finished(), ['integratedCare'])).toBeLessThan(
      firstAt(finished(), ['singleOrder']),
    );
    // Past the pass, the schedule runs again.
    expect(await app.runner.runResource('singleOrder')).not.toHaveLength(0);

    // Every order goes to the ERP at its first try: none waits for a care arrangement.
    const queue = await app.worker.runUntilEmpty();
    expect(queue.waiting).toBe(0);
    expect(countJobs(app.store, 'pending', 'deliver.')).toBe(0);
    expect(countJobs(app.store, 'dead', 'deliver.')).toBe(0);
    expect(rig.outboxFiles('singleOrder').length).toBeGreaterThan(0);
    expect(troubles()).toEqual([]);
  });

  it('pulls the resources of a wave side by side; waits for the care arrangements, for a slow patient list 1 s at most', async () => {
    await sim.control.setFault({ path: '/patient', withQuery: 'updatedAfter', latencyMs: 4_000 });
    const slowCare = { path: '/integratedCare', withQuery: 'updatedAfter', latencyMs: 2_000 };
    await sim.control.setFault({ ...slowCare, times: 1 });
    const held = sim.fakeClock();
    const pass = app.runner.firstPass(() => false);
    // The articles finish while the simulator holds the patients and the care arrangements.
    await eventually('the articles pulled', () => finished().includes('article'));
    expect(finished()).not.toContain('patient');
    // The orders wait for the care arrangements however long they take on the daemon's clock.
    await eventually('the orders to wait on the clock', () => rig.clock.sleeping() > 0);
    rig.clock.advance(10 * WAVE_WAIT_MS);
    await new Promise((resolve) => setImmediate(resolve));
    expect(finished()).not.toContain('integratedCare');
    held.advance(2_000);
    await eventually('the care arrangements pulled', () => finished().includes('integratedCare'));
    // Then for the patients, still held, WAVE_WAIT_MS of the daemon's clock at most.
    await eventually('the orders to wait for the patients', () => rig.clock.sleeping() > 0);
    expect(finished()).not.toContain('singleOrder');
    rig.clock.advance(WAVE_WAIT_MS);
    await eventually('the single orders pulled', () => finished().includes('singleOrder'));
    expect(finished()).not.toContain('patient');
    await answeringUntil(sim, 2_000, pass);
    const order = finished();
    for (const resource of ['article', 'patient', 'integratedCare', 'singleOrder']) {
      expect(order, `${resource} pulled`).toContain(resource);
    }
    // One by one, in reference order, the patients would have finished before the articles.
    expect(order.indexOf('article')).toBeLessThan(order.indexOf('patient'));
    // The orders waited for the slow care arrangements (no read of one alone), not the patients
    // (a hand-over reads one alone).
    expect(lastAt(order, ['integratedCare'])).toBeLessThan(order.indexOf('singleOrder'));
    expect(order.indexOf('singleOrder')).toBeLessThan(order.indexOf('patient'));
    // The orders pulled before their patients go to the ERP all the same.
    expect((await app.worker.runUntilEmpty()).waiting).toBe(0);
    expect(countJobs(app.store, 'dead', 'deliver.')).toBe(0);
  });

  it('keeps no schedule back once it was stopped half-way', async () => {
    let asked = 0;
    // Stopped after the first resource.
    await app.runner.firstPass(() => asked++ > 0);
    expect(await app.runner.runResource('singleOrder')).not.toBeUndefined();
  });
});

describe('sync --once', () => {
  it('pulls the resources it is given in the order of their references, not the order given', async () => {
    const named: ResourceName[] = [
      'directOrder',
      'singleOrder',
      'integratedCare',
      'article',
      'patient',
    ];
    const pulled = (await app.runner.runAll(named)).map((summary) => summary.resource);
    expect([...new Set(pulled)]).toEqual([
      'patient',
      'article',
      'integratedCare',
      'singleOrder',
      'directOrder',
    ]);
    const queue = await app.worker.runUntilEmpty();
    expect(queue.waiting).toBe(0);
    expect(troubles()).toEqual([]);
  });
});
