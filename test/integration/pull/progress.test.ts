import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../../src/log/index.js';
import {
  PROGRESS_DRAW_MS,
  pullProgress,
  type ProgressTerminal,
} from '../../../src/pull/progress.js';
import { pullTarget, type PullSummary } from '../../../src/pull/puller.js';
import { sqlitePullStore } from '../../../src/pull/pullStore.js';
import { pullTargets, type PullTarget } from '../../../src/pull/targets.js';
import { resetCheckpoint } from '../../../src/store/index.js';
import { SIM_START, startPullRig, type PullRig } from '../../support/daemon.js';
import { FakeClock, TickingClock } from '../../support/fakeClock.js';
import { startTestSimulator, type TestSimulator } from '../../support/simulator.js';

type Line = Record<string, unknown>;

const ARTICLES = 30_000;
// Each reading of the clock (about one a record) is 5 ms: 30,000 records take 150 s.
const TICK_MS = 5;

let sim: TestSimulator;
beforeAll(async () => {
  sim = await startTestSimulator({ seed: 4, sizes: { articles: ARTICLES } });
}, 120_000);
afterAll(async () => {
  await sim.close();
});

describe("a long pull's progress in the log (no terminal)", () => {
  let rig: PullRig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  function pullWithLog(lines: Line[]): (target: PullTarget) => Promise<PullSummary> {
    rig = startPullRig(sim.url, 'B', { clock: new TickingClock(SIM_START, TICK_MS) });
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void lines.push(JSON.parse(line) as Line) },
    });
    const deps = {
      store: sqlitePullStore(rig.store, () => undefined),
      source: rig.client,
      clock: rig.clock,
      settings: { overlapSeconds: 120, createdLookbackDays: 30, batchSize: 500 },
      progress: pullProgress({ clock: rig.clock, logger }),
    };
    return (target) => pullTarget(deps, target);
  }

  const targetOf = (resource: string, filter: string): PullTarget => {
    const found = pullTargets(sim.state.contract).find(
      (t) => t.resource === resource && t.filter === filter,
    );
    if (found === undefined) throw new Error(`variant B has no target ${resource}?${filter}`);
    return found;
  };
  const progressLines = (lines: Line[]) =>
    lines.filter((line) => String(line['msg']).includes('still going'));

  it(
    'says every 30 s how many records came and how fast, and how long is left once a run before it gives the count',
    { timeout: 120_000 },
    async () => {
      const lines: Line[] = [];
      const pull = pullWithLog(lines);
      const articles = targetOf('article', 'created');

      const first = await pull(articles);
      expect(first.ok).toBe(true);
      expect(first.fetched).toBeGreaterThan(ARTICLES * 0.8);
      const firstLines = progressLines(lines);
      // 150 s of the clock at one line per 30 s.
      expect(firstLines.length).toBeGreaterThanOrEqual(3);
      const counts = firstLines.map((line) => line['fetched'] as number);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(new Set(counts).size).toBe(counts.length);
      for (const line of firstLines) {
        expect(line).toMatchObject({
          level: 'info',
          resource: 'article',
          filter: 'created',
          mode: 'incremental',
          perSecond: expect.any(Number) as unknown,
        });
        expect(line['perSecond']).toBeGreaterThan(0);
        expect(line['fetched']).toBeLessThan(first.fetched);
        // No run before this one: no estimate.
        expect(line).not.toHaveProperty('etaSeconds');
        expect(line['msg']).toBe(
          `pull of article?status=created still going: ${String(line['fetched'])} records so far, ${String(line['perSecond'])}/s`,
        );
      }

      // The operator resets the checkpoint: the next pull reads the whole list again.
      resetCheckpoint(rig!.store, 'article');
      lines.length = 0;
      const second = await pull(articles);
      expect(second.ok).toBe(true);
      const secondLines = progressLines(lines);
      expect(secondLines.length).toBeGreaterThanOrEqual(3);
      const etas = secondLines.map((line) => line['etaSeconds'] as number);
      for (const line of secondLines) {
        const { fetched, perSecond, etaSeconds } = line as Record<
          'fetched' | 'perSecond' | 'etaSeconds',
          number
        >;
        expect(line['expected']).toBe(first.fetched);
        expect(etaSeconds).toBeGreaterThan(0);
        // The time left at the rate so far (the rate shown is rounded).
        expect(etaSeconds).toBeCloseTo((first.fetched - fetched) / perSecond, -1);
        expect(line['msg']).toMatch(
          new RegExp(`about \\d+ (s|min) left \\(the last run had ${first.fetched}\\)$`),
        );
      }
      expect(etas).toEqual([...etas].sort((a, b) => b - a));
    },
  );

  it('says nothing during short pulls, nor during an incremental pull after a long one', async () => {
    const lines: Line[] = [];
    const pull = pullWithLog(lines);
    for (const [resource, filter] of [
      ['region', ''],
      ['patient', ''],
      ['singleOrder', 'created'],
    ] as const) {
      const summary = await pull(targetOf(resource, filter));
      expect(summary.ok).toBe(true);
      expect(summary.fetched).toBeGreaterThan(0);
    }
    expect(progressLines(lines)).toEqual([]);
  });
});

describe("a long pull's progress on a terminal", () => {
  const target: PullTarget = { resource: 'article', filter: 'created', status: 'created' };

  function terminalRig() {
    const clock = new FakeClock(SIM_START);
    const written: string[] = [];
    const terminal: ProgressTerminal = { write: (text: string) => written.push(text) };
    const logged: Line[] = [];
    const logger = createLogger({
      level: 'info',
      destination: { write: (line: string) => void logged.push(JSON.parse(line) as Line) },
    });
    return { clock, written, logged, progress: pullProgress({ clock, logger, terminal }) };
  }

  it('draws one line in place, redrawn every second, and clears it when the pull ends', () => {
    const { clock, written, logged, progress } = terminalRig();
    const tracker = progress({ target, mode: 'reconcile', expected: 1_000 });
    clock.advance(PROGRESS_DRAW_MS - 1);
    tracker.fetched(10);
    expect(written).toEqual([]);
    clock.advance(1);
    tracker.fetched(100);
    clock.advance(PROGRESS_DRAW_MS);
    tracker.fetched(200);
    tracker.end();
    expect(written).toEqual([
      '\r\x1b[2Karticle?status=created: 100 records so far, 100/s, about 9 s left (the last run had 1000)',
      '\r\x1b[2Karticle?status=created: 200 records so far, 100/s, about 8 s left (the last run had 1000)',
      '\r\x1b[2K',
    ]);
    // On a terminal the line is the progress: the log does not say it too.
    expect(logged).toEqual([]);
  });

  it('shows the pulls under way side by side, and only those', () => {
    const { clock, written, progress } = terminalRig();
    const articles = progress({ target, mode: 'incremental', expected: undefined });
    const patients = progress({
      target: { resource: 'patient', filter: '' },
      mode: 'incremental',
      expected: undefined,
    });
    clock.advance(2 * PROGRESS_DRAW_MS);
    articles.fetched(4_000);
    patients.fetched(600);
    articles.end();
    patients.end();
    expect(written).toEqual([
      '\r\x1b[2Karticle?status=created: 4000 records so far, 2000/s',
      '\r\x1b[2Karticle?status=created: 4000 records so far, 2000/s | patient: 600 records so far, 300/s',
      '\r\x1b[2Kpatient: 600 records so far, 300/s',
      '\r\x1b[2K',
    ]);
  });

  it('draws nothing for a pull that ends within the first second, and so clears nothing', () => {
    const { clock, written, progress } = terminalRig();
    const tracker = progress({ target, mode: 'incremental', expected: 50 });
    clock.advance(PROGRESS_DRAW_MS / 2);
    tracker.fetched(50);
    tracker.end();
    expect(written).toEqual([]);
  });
});
