import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { api, startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';
type Row = Record<string, unknown>;

/**
 * Spec document 1, "Other enumerated states": IntegratedCare `seriesStatus` (transmission status
 * of a care arrangement) -3 .. 5, "Value names and transitions: not shown". Reading 0 as "not
 * yet transmitted" and PATCHing 1 is a guess, so it is the operator's choice (`ack.integratedCare`).
 */
describe.each([
  { choice: undefined, patched: true },
  { choice: 'seriesStatus', patched: true },
  { choice: 'none', patched: false },
] as const)('care arrangements with ack.integratedCare $choice', ({ choice, patched }) => {
  let sim: TestSimulator;
  let rig: AppRig;
  let app: App;

  afterEach(async () => {
    await app.close();
    await sim.close();
    rig.cleanup();
  });

  it(`${patched ? 'PATCHes seriesStatus 1' : 'sends nothing'} once the ERP has a new one`, async () => {
    sim = await startTestSimulator({ variant: 'B', clock: new FakeClock(START) });
    rig = appRig(
      sim.url,
      'B',
      START,
      choice === undefined ? {} : { ack: { integratedCare: choice } },
    );
    app = await rig.open();
    const created = await api(
      sim,
      'GET',
      '/integratedCare?status=created&updatedAfter=1970-01-01T00:00:00.000Z',
      { key: 'demo-key-2' },
    );
    const care = (created.json as Row[])[0];
    if (!care) throw new Error('the seed has no new care arrangement');
    const id = String(care._id);

    rig.clock.advance(60_000);
    const report = await syncOnce(app, ['patient', 'article', 'integratedCare']);
    expect(report.ok, JSON.stringify(report.pulls.filter((p) => !p.ok))).toBe(true);
    expect(rig.outboxFiles('integratedCare').filter((f) => f.startsWith(id))).toHaveLength(1);

    const patches = (await sim.control.requests()).filter(
      (r) => r.method === 'PATCH' && r.path === `/integratedCare/${id}`,
    );
    expect(patches).toHaveLength(patched ? 1 : 0);
    expect((await sim.control.getRecord('integratedCare', id)).seriesStatus).toBe(patched ? 1 : 0);
  });
});
