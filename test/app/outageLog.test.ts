import { pino } from 'pino';
import { afterEach, expect, it } from 'vitest';
import { outageLog } from '../../src/app/daemon.js';
import type { App } from '../../src/app/app.js';
import { syncOnce } from '../../src/app/syncOnce.js';
import { startSimulator, type RunningSimulator } from '../../src/simulator/index.js';
import { appRig, type AppRig } from '../support/appRig.js';
import { FakeClock } from '../support/fakeClock.js';

const START = '2026-03-01T08:00:00.000Z';

let closing: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const close of closing.reverse()) await close();
  closing = [];
});

/** Every log line the app wrote, parsed. */
function capturedLogger() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino(
    { level: 'debug' },
    {
      write: (line: string) => void lines.push(JSON.parse(line) as { level: number; msg: string }),
    },
  );
  return { logger, lines };
}

const WARN = 40;
const INFO = 30;

it('a 10-minute platform outage is at most three warn lines: when it starts, and info when it is back', async () => {
  const simClock = new FakeClock(START);
  const start = (port: number) =>
    startSimulator({ variant: 'B', clock: simClock, port, host: '127.0.0.1' });
  let sim: RunningSimulator = await start(0);
  const port = Number(new URL(sim.url).port);
  const rig: AppRig = appRig(sim.url, 'B', START);
  const { logger, lines } = capturedLogger();
  const app: App = await rig.open(logger);
  closing.push(
    () => rig.cleanup(),
    () => app.close(),
    () => sim.close(),
  );
  const log = outageLog(app);
  const minute = async () => {
    simClock.advance(60_000);
    rig.clock.advance(60_000);
    await syncOnce(app);
    log();
  };
  await minute();
  const before = lines.length;

  await sim.close();
  for (let minutes = 0; minutes < 10; minutes += 1) await minute();
  sim = await start(port);
  await minute();
  await minute();

  const during = lines.slice(before);
  const loud = during.filter((line) => line.level >= WARN);
  expect(loud.length, loud.map((line) => line.msg).join('\n')).toBeLessThanOrEqual(3);
  const down = during.filter((line) => line.msg.includes('the platform cannot be reached'));
  expect(down).toHaveLength(1);
  expect(down[0]?.level).toBe(WARN);
  const back = during.filter((line) => line.msg.includes('the platform can be reached again'));
  expect(back.map((line) => line.level)).toEqual([INFO]);
  expect(app.client.outage()).toBeUndefined();
});
