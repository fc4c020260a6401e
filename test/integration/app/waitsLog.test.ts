import { afterEach, expect, it } from 'vitest';
import type { App } from '../../../src/app/app.js';
import { syncOnce } from '../../../src/app/syncOnce.js';
import { createLogger } from '../../../src/log/index.js';
import { appRig, type AppRig } from '../../support/appRig.js';
import { FakeClock } from '../../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

const START = '2026-03-01T08:00:00.000Z';

type Line = Record<string, unknown> & { level: string; msg: string };

let closing: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

it('orders that wait for their care arrangements: one warning without a stack, info once they went out', async () => {
  const simClock = new FakeClock(START);
  const sim: TestSimulator = await startTestSimulator({ variant: 'B', clock: simClock });
  const rig: AppRig = appRig(sim.url, 'B', START);
  const lines: Line[] = [];
  const destination = { write: (line: string) => void lines.push(JSON.parse(line) as Line) };
  const app: App = await rig.open(createLogger({ level: 'debug', destination }));
  closing.push(
    () => rig.cleanup(),
    () => sim.close(),
    () => app.close(),
  );
  const pass = async (resources: Parameters<typeof syncOnce>[1]) => {
    simClock.advance(60_000);
    rig.clock.advance(60_000);
    return syncOnce(app, resources);
  };
  const waits = () => lines.filter((line) => line.code === 'DELIVERY_WAITS_FOR_REFERENCE');

  // Orders before their care arrangements: every order waits, pass after pass.
  await pass(['patient', 'article', 'singleOrder']);
  await pass(['singleOrder']);
  await pass(['singleOrder']);
  const tries = waits().filter((line) => line.level === 'debug');
  const warned = waits().filter((line) => line.level === 'warn');
  expect(tries.length).toBeGreaterThan(2);
  expect(warned).toHaveLength(1);
  expect(warned[0]?.msg).toMatch(
    /^queue: deliver\.singleOrder .* waits, next try at .*, not yet known/,
  );
  expect(warned[0]).not.toHaveProperty('err');
  expect(lines.filter((line) => line.level === 'error')).toEqual([]);

  await pass(['integratedCare']);
  await pass(['singleOrder']);
  const back = waits().filter((line) => line.level === 'info');
  expect(back.map((line) => line.msg)).toEqual([
    expect.stringMatching(/^queue: no job waits for DELIVERY_WAITS_FOR_REFERENCE any more/),
  ]);
  expect(rig.outboxFiles('singleOrder').length).toBeGreaterThan(0);
});
